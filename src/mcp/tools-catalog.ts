/** Shelf, menu and quote (free, from the service) and the purchase history and spend (from the ledger). */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PurchaseRequestView, PurchaseView, QuoteView } from '../shared/rpc';
import type { CoreCall } from './call';
import { guarded, json, text } from './result';
import { handleArg, selectionOf, selectionShape } from './selection';
import { plain } from './text';
import { money } from './money';

const FREE = { readOnlyHint: true, openWorldHint: true } as const;
const LEDGER = { readOnlyHint: true, openWorldHint: false } as const;

export const purchaseSummary = (p: PurchaseView) => ({
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

export const requestSummary = (r: PurchaseRequestView) => ({
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

export const quoteSummary = (q: QuoteView) => ({
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
  priceFetchedAt: q.fetchedAt,
});

export function catalogTools(server: McpServer, call: CoreCall): void {
  server.registerTool(
    'shelf',
    {
      title: 'The shelf of handles',
      description:
        'The free shelf: handles the service has reports on, with display name, followers and report count. Filter by text; page with offset. Free; signs nothing.',
      inputSchema: {
        text: z.string().max(200).optional().describe('Only handles or names containing this text.'),
        offset: z.number().int().min(0).optional().describe('Handles to skip (default 0).'),
        limit: z.number().int().min(1).max(100).optional().describe('Handles per page (default 25).'),
      },
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
      return text(
        json({
          ...(summary.stale ? { offlineCopyFrom: summary.fetchedAt } : {}),
          matched: page.matched,
          offset: page.offset,
          handles: page.entries.map((e) => ({
            handle: e.username,
            name: e.displayName === undefined ? null : plain(e.displayName),
            followers: e.followers,
            reports: e.reportCount,
            updated: e.gatheredAt,
          })),
        }),
      );
    }),
  );

  server.registerTool(
    'menu',
    {
      title: "A handle's report menu",
      description:
        "A handle's free report menu: every report's id, date, model, post count and period, and whether the person owns it. Free; signs nothing. Use the ids with quote or request_purchase.",
      inputSchema: { handle: handleArg },
      annotations: FREE,
    },
    guarded(async ({ handle }) => {
      const view = await call('menu.get', { handle });
      return text(
        json({
          handle: view.username,
          ...(view.stale ? { offlineCopyFrom: view.fetchedAt } : {}),
          reports: view.reports.map((r) => ({
            id: r.id,
            createdAt: r.createdAt,
            model: plain(r.model),
            postCount: r.postCount,
            period: r.dateRange,
            owned: r.owned,
          })),
        }),
      );
    }),
  );

  server.registerTool(
    'quote',
    {
      title: 'Live price',
      description:
        "The live price of a choice of reports, from the service's payment challenge, with what the person's caps and budgets say about it. Signs nothing and pays nothing. Choose exactly one of all, from/to, ids. To buy, use request_purchase: only the person can approve a purchase.",
      inputSchema: { handle: handleArg, ...selectionShape },
      annotations: FREE,
    },
    guarded(async (args) => {
      const view = await call('quote.get', {
        handle: args.handle,
        selection: selectionOf(args),
        includeOwned: args.includeOwned ?? false,
      });
      return text(json(quoteSummary(view)), 'This is a price only: nothing was signed or paid.');
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
      annotations: LEDGER,
    },
    guarded(async ({ limit }) => {
      const view = await call('purchases.list', {});
      const { requests } = await call('purchaseRequests.list', {});
      return text(
        json({
          spentToday: money(view.spentTodayUnits),
          dailyCap: money(view.dailyCapUnits),
          perPurchaseCap: money(view.perPurchaseCapUnits),
          purchases: view.purchases.slice(0, limit ?? 50).map(purchaseSummary),
          requests: requests.slice(0, limit ?? 50).map(requestSummary),
        }),
      );
    }),
  );

  server.registerTool(
    'spend',
    {
      title: 'Spend',
      description:
        'What was spent today, this month and in all, by handle (with monthly budgets) and by day; purchases in doubt count in full. Offline.',
      inputSchema: {
        days: z.number().int().min(1).max(366).optional().describe('Days of the by-day series (default 30).'),
      },
      annotations: LEDGER,
    },
    guarded(async ({ days }) => {
      const view = await call('purchases.spend', days === undefined ? {} : { days });
      return text(json(view));
    }),
  );
}
