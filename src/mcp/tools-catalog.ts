/** Shelf, menu and quote (free, from the service) and the purchase history and spend (from the ledger). */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PurchaseRequestView, PurchaseView, QuoteView } from '../shared/rpc';
import type { CoreCall } from './call';
import { menuOut, purchaseOut, purchasesOut, quoteOut, requestOut, shelfOut, spendOut } from './outputs';
import { guarded, json, structured, type Out } from './result';
import { handleArg, selectionOf, selectionShape } from './selection';
import { periodOf, plain } from './text';
import { money } from './money';

const FREE = { readOnlyHint: true, openWorldHint: true } as const;
const LEDGER = { readOnlyHint: true, openWorldHint: false } as const;

export const purchaseSummary = (p: PurchaseView): z.infer<typeof purchaseOut> => ({
  id: p.id,
  handle: p.handle,
  reports: p.reportCount,
  reportIds: p.reportIds,
  amount: money(p.amount),
  // What left the wallet: null while in doubt (up to amount).
  moved: p.movedUnits === null ? null : money(p.movedUnits),
  state: p.state,
  paidWith: p.paidWith,
  transaction: p.txHash,
  createdAt: p.createdAt,
  ...(p.waitingFor ? { waitingFor: p.waitingFor.summary } : {}),
});

export const requestSummary = (r: PurchaseRequestView): z.infer<typeof requestOut> => ({
  id: r.id,
  state: r.state,
  handle: r.handle,
  reports: r.reportCount,
  amount: money(r.amount),
  service: r.serviceUrl,
  network: r.network,
  payTo: r.payTo,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
  purchaseId: r.purchaseId,
  ...(r.error ? { lastRefusal: r.error } : {}),
});

export const quoteSummary = (q: QuoteView): Out<typeof quoteOut> => ({
  handle: q.handle,
  reports: q.reportCount,
  unitPrice: money(q.unitPriceUnits),
  amount: money(q.amount),
  ownedLeftOut: q.includesOwned ? 0 : q.ownedCount,
  paidWith: q.paidWith,
  payTo: q.payTo,
  payee: q.payToStatus,
  network: q.network,
  overPurchaseCap: q.overPurchaseCap,
  overDailyCap: q.overDailyCap,
  overHandleBudget: q.overHandleBudget,
  unresolvedEarlierPurchase: q.unresolved?.purchaseId ?? null,
  ...(q.team ? { team: teamSummary(q.team) } : {}),
  priceFetchedAt: q.fetchedAt,
});

/** The team's word on a quote, in the sentence the CLI would print (names come from colleagues' desks). */
function teamSummary(team: NonNullable<QuoteView['team']>): NonNullable<Out<typeof quoteOut>['team']> {
  if (!team.reachable)
    return {
      reachable: false,
      ownedByTeam: 0,
      beingBought: 0,
      free: 0,
      refusal: team.code,
      said: plain(`Buying needs the team, and it did not answer: ${team.reason}`),
    };
  return {
    reachable: true,
    ownedByTeam: team.reports.filter((mark) => mark.state === 'owned').length,
    beingBought: team.reports.filter((mark) => mark.state === 'in_progress').length,
    free: team.free,
    refusal: team.refusal?.code ?? null,
    said: plain(
      team.refusal?.message ??
        'The team owns none of these and no one is buying them: a purchase reserves them for the team first.',
    ),
  };
}

export function catalogTools(server: McpServer, call: CoreCall): void {
  server.registerTool(
    'list_shelf',
    {
      title: 'The shelf of handles',
      description:
        'The free shelf: handles the service has reports on, with display name, followers and report count. Filter by text; page with offset. Free; signs nothing.',
      inputSchema: {
        text: z.string().max(200).optional().describe('Only handles or names containing this text.'),
        offset: z.number().int().min(0).optional().describe('Handles to skip (default 0).'),
        limit: z.number().int().min(1).max(100).optional().describe('Handles per page (default 25).'),
      },
      outputSchema: shelfOut,
      annotations: FREE,
    },
    guarded(async ({ text: filter, offset, limit }) => {
      const summary = await call('shelf.summary', {});
      const page = await call('shelf.page', {
        version: summary.version,
        ...(filter ? { text: filter } : {}),
        offset: offset ?? 0,
        limit: limit ?? 25,
      });
      const data: Out<typeof shelfOut> = {
        ...(summary.stale && summary.fetchedAt ? { offlineCopyFrom: summary.fetchedAt } : {}),
        matched: page.matched,
        offset: page.offset,
        handles: page.entries.map((e) => ({
          handle: e.username,
          name: e.displayName === undefined ? null : plain(e.displayName),
          followers: e.followers ?? null,
          reports: e.reportCount ?? null,
          updated: e.gatheredAt ?? null,
        })),
      };
      return structured(data, json(data));
    }),
  );

  server.registerTool(
    'get_menu',
    {
      title: "A handle's report menu",
      description:
        "A handle's free report menu: every report's id, date, model, post count and period, and whether the person owns it. Free; signs nothing. Use the ids with get_quote or request_purchase.",
      inputSchema: { handle: handleArg },
      outputSchema: menuOut,
      annotations: FREE,
    },
    guarded(async ({ handle }) => {
      const view = await call('menu.get', { handle });
      const data: Out<typeof menuOut> = {
        handle: view.username,
        ...(view.stale && view.fetchedAt ? { offlineCopyFrom: view.fetchedAt } : {}),
        reports: view.reports.map((r) => ({
          id: r.id,
          createdAt: r.createdAt,
          model: plain(r.model),
          postCount: r.postCount,
          period: periodOf(r.dateRange),
          owned: r.owned,
        })),
      };
      return structured(data, json(data));
    }),
  );

  server.registerTool(
    'get_quote',
    {
      title: 'Live price',
      description:
        "The live price of a choice of reports, from the service's payment challenge, with what the person's caps and budgets say about it. Signs nothing and pays nothing. Choose exactly one of all, from/to, ids. To buy, use request_purchase: only the person can approve a purchase.",
      inputSchema: { handle: handleArg, ...selectionShape },
      outputSchema: quoteOut,
      annotations: FREE,
    },
    guarded(async (args) => {
      const view = await call('quote.get', {
        handle: args.handle,
        selection: selectionOf(args),
        includeOwned: args.includeOwned ?? false,
      });
      const data = quoteSummary(view);
      return structured(data, json(data), 'This is a price only: nothing was signed or paid.');
    }),
  );

  server.registerTool(
    'list_purchases',
    {
      title: 'Purchase history',
      description:
        'The purchases in the ledger, newest first (state, amount, what actually moved, transaction), and the purchase requests made over MCP with their state. Offline.',
      inputSchema: {
        limit: z.number().int().min(1).max(200).optional().describe('Purchases to return (default 50).'),
      },
      outputSchema: purchasesOut,
      annotations: LEDGER,
    },
    guarded(async ({ limit }) => {
      const view = await call('purchases.list', {});
      const { requests } = await call('purchaseRequests.list', {});
      const data: Out<typeof purchasesOut> = {
        spentToday: money(view.spentTodayUnits),
        dailyCap: money(view.dailyCapUnits),
        perPurchaseCap: money(view.perPurchaseCapUnits),
        purchases: view.purchases.slice(0, limit ?? 50).map(purchaseSummary),
        requests: requests.slice(0, limit ?? 50).map(requestSummary),
      };
      return structured(data, json(data));
    }),
  );

  server.registerTool(
    'get_spend',
    {
      title: 'Spend',
      description:
        'What was spent today, this month and in all, by handle (with monthly budgets) and by day; purchases in doubt count in full. Offline.',
      inputSchema: {
        days: z.number().int().min(1).max(366).optional().describe('Days of the by-day series (default 30).'),
      },
      outputSchema: spendOut,
      annotations: LEDGER,
    },
    guarded(async ({ days }) => {
      const view = await call('purchases.spend', days === undefined ? {} : { days });
      const data: Out<typeof spendOut> = {
        lifetimeUnits: view.lifetimeUnits,
        monthUnits: view.monthUnits,
        todayUnits: view.todayUnits,
        unsettledUnits: view.unsettledUnits,
        dayStart: view.dayStart,
        monthStart: view.monthStart,
        dailyCapUnits: view.dailyCapUnits,
        perPurchaseCapUnits: view.perPurchaseCapUnits,
        byHandle: view.byHandle.map((h) => ({
          handle: h.handle,
          totalUnits: h.totalUnits,
          monthUnits: h.monthUnits,
          purchases: h.purchases,
          budgetUnits: h.budgetUnits,
        })),
        byDay: view.byDay.map((d) => ({ day: d.day, units: d.units })),
      };
      return structured(data, json(data));
    }),
  );
}
