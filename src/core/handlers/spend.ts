/** What was spent (purchases.spend), handle budgets (budget.set) and the last known price (quote.lastPrice). */
import type { LastPriceView, RpcHandlers, SpendView } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';
import { normalizeHandle } from '../client/service-client';
import { DeskError } from '../base/errors';
import { offlineReason } from '../catalog/offline';
import { consentToBudget } from '../payments/consent';
import { localDayKey, startOfLocalDay, startOfLocalMonth } from '../../shared/money';
import { handleKey } from '../../shared/handle-key';

const DEFAULT_DAYS = 30;

/** `days` local days ending today, oldest first: from SQL's days with spend, the others at 0. */
function dayRange(ctx: DeskContext, today: Date, days: number): SpendView['byDay'] {
  const first = new Date(today);
  first.setDate(first.getDate() - (days - 1));
  const spent = new Map(ctx.spend.byDay(first).map((row) => [row.day, row.amount]));
  const out: SpendView['byDay'] = [];
  for (let at = new Date(first); at <= today; at.setDate(at.getDate() + 1)) {
    const day = localDayKey(at.getTime());
    out.push({ day, units: (spent.get(day) ?? 0n).toString() });
  }
  return out;
}

export function spendView(ctx: DeskContext, days: number = DEFAULT_DAYS): SpendView {
  const now = ctx.now();
  const dayStart = startOfLocalDay(now);
  const monthStart = startOfLocalMonth(now);
  const totals = ctx.spend.totals(monthStart);
  const budgets = new Map(ctx.budgets.list().map((b) => [handleKey(b.handle), b]));
  const byHandle: SpendView['byHandle'] = ctx.spend.byHandle(monthStart).map((row) => {
    const budget = budgets.get(handleKey(row.handle));
    budgets.delete(row.handle.toLowerCase());
    return {
      handle: row.handle,
      totalUnits: row.total.toString(),
      monthUnits: row.month.toString(),
      purchases: row.purchases,
      budgetUnits: budget ? budget.monthly.toString() : null,
    };
  });
  for (const budget of budgets.values()) {
    byHandle.push({
      handle: budget.handle,
      totalUnits: '0',
      monthUnits: '0',
      purchases: 0,
      budgetUnits: budget.monthly.toString(),
    });
  }
  const settings = ctx.settings.get();
  return {
    lifetimeUnits: totals.lifetime.toString(),
    monthUnits: totals.month.toString(),
    todayUnits: ctx.spending.spentToday().toString(),
    unsettledUnits: totals.unsettled.toString(),
    dayStart: dayStart.toISOString(),
    monthStart: monthStart.toISOString(),
    dailyCapUnits: settings.dailyCapUnits,
    perPurchaseCapUnits: settings.perPurchaseCapUnits,
    byHandle,
    byDay: dayRange(ctx, dayStart, days),
  };
}

/**
 * The last price per report the selected service asked: for this handle if it was ever priced, else for any
 * of the service's handles. The newer of a purchase in the ledger and a quote held this run wins.
 */
function lastPrice(ctx: DeskContext, handle: string): LastPriceView | null {
  const serviceUrl = ctx.client().baseUrl;
  for (const handleOrAny of [handle, null]) {
    const paid = ctx.spend.lastPayment(serviceUrl, handleOrAny);
    const quoted = ctx.quotes.latest(serviceUrl, handleOrAny);
    const quotedAt = quoted ? new Date(quoted.fetchedAt).toISOString() : null;
    if (quoted && quotedAt !== null && (!paid || quotedAt >= paid.createdAt)) {
      return {
        unitPriceUnits: quoted.quote.unitPrice.toString(),
        at: quotedAt,
        source: 'quote',
        handle: quoted.handle,
      };
    }
    if (paid) {
      const unit = BigInt(paid.amount) / BigInt(paid.reportCount);
      return { unitPriceUnits: unit.toString(), at: paid.createdAt, source: 'purchase', handle: paid.handle };
    }
  }
  return null;
}

/**
 * A new budget must name a handle the service lists, on its live shelf or, offline, on the copy kept from the
 * last fetch: a typo would otherwise be a budget that never applies while the person believes it does. With
 * no answer and no copy nothing can be checked, and a limit is never refused for that: it is kept, and
 * `unchecked` says why. Changing a budget the desk already holds needs no check.
 */
async function uncheckedBudgetHandle(ctx: DeskContext, name: string): Promise<string | undefined> {
  const key = name.toLowerCase();
  if (ctx.budgets.list().some((budget) => budget.handle.toLowerCase() === key)) return undefined;
  let shelf;
  try {
    shelf = await ctx.catalogService.shelf();
  } catch (error) {
    const reason = offlineReason(error);
    if (reason === null) throw error;
    return `the service did not answer and no copy of its shelf is saved (${reason})`;
  }
  if (!shelf.configured) return 'the service keeps no shelf of handles';
  if (shelf.entries.some((entry) => entry.username.toLowerCase() === key)) return undefined;
  const which = shelf.stale
    ? `The copy of the service's shelf saved at ${shelf.fetchedAt?.slice(0, 16).replace('T', ' ') ?? 'an earlier run'} UTC (the service did not answer)`
    : "The service's shelf";
  throw new DeskError(
    'budget_unknown_handle',
    `${which} lists no handle @${name}, so no budget was set. Check the spelling against the Shelf.`,
    'usage',
    { handle: name },
  );
}

export const spendHandlers = (
  ctx: DeskContext,
): Pick<RpcHandlers, 'purchases.spend' | 'budget.set' | 'quote.lastPrice'> => ({
  'purchases.spend': async ({ days }) => spendView(ctx, days),
  'budget.set': async ({ handle, monthlyUnits, passphrase }) => {
    const name = normalizeHandle(handle);
    await consentToBudget(ctx, name, monthlyUnits === null ? null : BigInt(monthlyUnits), passphrase);
    const unchecked = monthlyUnits === null ? undefined : await uncheckedBudgetHandle(ctx, name);
    ctx.budgets.set(name, monthlyUnits === null ? null : BigInt(monthlyUnits));
    return { handle: name, monthlyUnits, ...(unchecked === undefined ? {} : { unchecked }) };
  },
  'quote.lastPrice': async ({ handle }) => lastPrice(ctx, normalizeHandle(handle)),
});
