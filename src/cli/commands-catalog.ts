/** list, menu, quote, buy: browsing and paying. */
import type { Selection } from '../shared/rpc';
import type { DeskCore } from '../core';
import { table, UsageError, type Output } from './output';

export interface Flags {
  all?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
  ids?: string | undefined;
  missing?: boolean | undefined;
  yes?: boolean | undefined;
  'over-cap'?: boolean | undefined;
  'accept-payee'?: boolean | undefined;
}

export async function list(desk: DeskCore, out: Output): Promise<void> {
  const shelf = await desk.handlers['shelf.list']({});
  out.result(shelf, () =>
    [
      shelf.stale ? `(offline: last copy from ${shelf.fetchedAt}; ${shelf.staleReason ?? ''})` : '',
      table(
        shelf.entries.map((e) => ({
          handle: e.username,
          name: e.displayName,
          followers: e.followers,
          reports: e.reportCount,
          updated: e.gatheredAt?.slice(0, 10),
        })),
        ['handle', 'name', 'followers', 'reports', 'updated'],
      ),
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

export async function menu(desk: DeskCore, out: Output, handle: string): Promise<void> {
  const view = await desk.handlers['menu.get']({ handle });
  out.result(view, () =>
    table(
      view.reports.map((r) => ({
        id: r.id,
        created: r.createdAt.slice(0, 16).replace('T', ' '),
        model: r.model,
        posts: r.postCount,
        period: r.dateRange ? `${r.dateRange.from.slice(0, 10)}..${r.dateRange.to.slice(0, 10)}` : '',
        owned: r.owned ? 'yes' : '',
      })),
      ['id', 'created', 'model', 'posts', 'period', 'owned'],
    ),
  );
}

export async function selectionFrom(desk: DeskCore, handle: string, flags: Flags): Promise<Selection> {
  const chosen = [
    flags.all,
    flags.from !== undefined || flags.to !== undefined,
    flags.ids !== undefined,
    flags.missing,
  ].filter(Boolean);
  if (chosen.length !== 1) throw new UsageError('choose exactly one of --all, --from/--to, --ids, --missing');
  if (flags.all) return { kind: 'all' };
  if (flags.ids !== undefined) {
    const ids = flags.ids
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0) throw new UsageError('--ids needs at least one report id');
    return { kind: 'ids', ids };
  }
  if (flags.missing) {
    const view = await desk.handlers['menu.get']({ handle });
    const ids = view.reports.filter((r) => !r.owned).map((r) => r.id);
    if (ids.length === 0) throw new UsageError(`you already own every report of ${handle}`);
    return { kind: 'ids', ids };
  }
  return {
    kind: 'dates',
    ...(flags.from ? { from: flags.from } : {}),
    ...(flags.to ? { to: flags.to } : {}),
  };
}

export async function quote(desk: DeskCore, out: Output, handle: string, flags: Flags) {
  out.progress('asking the service for the live price…');
  const view = await desk.handlers['quote.get']({
    handle,
    selection: await selectionFrom(desk, handle, flags),
  });
  out.result(view, () =>
    [
      `${view.reportCount} report(s) of @${view.handle} at $${view.unitPriceUsd} each: $${view.totalUsd.toFixed(2)} (${view.amount} USDC base units)`,
      `pay to ${view.payTo} (${view.payToStatus}) on ${view.network}, token ${view.asset}`,
      view.overPurchaseCap || view.overDailyCap ? 'over your spend cap: add --over-cap to buy anyway' : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return view;
}

export async function buy(desk: DeskCore, out: Output, handle: string, flags: Flags): Promise<void> {
  if (!flags.yes)
    throw new UsageError('buy spends money: check the price with `quote` first, then add --yes');
  out.progress('asking the service for the live price…');
  const view = await desk.handlers['quote.get']({
    handle,
    selection: await selectionFrom(desk, handle, flags),
  });
  const withSecret = view.paidWith === 'library_secret';
  out.progress(
    withSecret
      ? `reading ${view.reportCount} report(s) with the library secret (nothing is paid)…`
      : `paying $${view.totalUsd.toFixed(2)} for ${view.reportCount} report(s)…`,
  );
  const outcome = await desk.handlers['purchase.start']({
    quoteId: view.quoteId,
    confirmedAmount: view.amount,
    acceptOverCap: flags['over-cap'] ?? false,
    acceptPayToChange: flags['accept-payee'] ?? false,
  });
  out.result(outcome, () => {
    if (outcome.status === 'completed' && outcome.purchase.paidWith === 'library_secret')
      return `read ${outcome.purchase.reportIds.length} report(s) with the library secret; nothing was paid`;
    if (outcome.status === 'completed') {
      return `bought ${outcome.purchase.reportIds.length} report(s) for $${outcome.purchase.amountUsd.toFixed(2)}; receipt ${outcome.purchase.txHash ?? 'none'}`;
    }
    if (outcome.status === 'in_doubt') return `IN DOUBT: ${outcome.message}`;
    if (outcome.status === 'failed') return `FAILED: ${outcome.message}`;
    return 'the wallet must sign in the app';
  });
  if (outcome.status === 'failed') process.exitCode = 4;
  if (outcome.status === 'in_doubt') process.exitCode = 5;
}
