/** list, menu, quote, buy: browsing and paying. */
import { formatUnitsUsd } from '../shared/money';
import type { Freshness, QuoteView, Selection } from '../shared/rpc';
import { quoteFactsSentence, quoteOptionSentence } from '../shared/quote-facts';
import { DeskError, type DeskCore } from '../core';
import { sayWhatAnInterruptLeaves } from './interrupt';
import { dateRange } from '../host/text/dates';
import { count, table, UsageError, type Output } from './output';
import { withConsent } from './consent';
import type { SignerFlags } from './commands-wallet';

export interface Flags extends SignerFlags {
  all?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
  ids?: string | undefined;
  missing?: boolean | undefined;
  'include-owned'?: boolean | undefined;
  rebuy?: boolean | undefined;
  yes?: boolean | undefined;
  'over-cap'?: boolean | undefined;
  'accept-payee'?: boolean | undefined;
  pay?: boolean | undefined;
}

/** How old a copy is, in the largest whole unit: "3 minutes", "2 days". */
function age(fetchedAt: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(fetchedAt)) / 1000));
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([size]) => seconds >= size) ?? [1, 'second'];
  const n = Math.floor(seconds / size);
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

/** The line `list` and `menu` print above a copy from the cache: offline, since when, and why. */
export function offlineLine(view: Freshness, now = Date.now()): string {
  if (!view.stale) return '';
  const when = view.fetchedAt
    ? `copy from ${view.fetchedAt.slice(0, 16).replace('T', ' ')} UTC, ${age(view.fetchedAt, now)} old`
    : 'copy from an earlier run';
  return `(offline: ${when}${view.staleReason ? `; ${view.staleReason}` : ''})`;
}

export async function list(desk: DeskCore, out: Output): Promise<void> {
  const shelf = await desk.handlers['shelf.list']({});
  out.result(shelf, () =>
    [
      offlineLine(shelf),
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

/** The service's "no reports for this handle", naming the handle asked for and where the handles are. */
function namingHandle(handle: string, error: unknown): unknown {
  if (!(error instanceof DeskError) || error.code !== 'unknown_handle') return error;
  return new DeskError(
    error.code,
    `The service holds no reports for @${handle}; \`intel-desk shelf\` lists the handles it has.`,
    error.kind,
  );
}

export async function menu(desk: DeskCore, out: Output, handle: string): Promise<void> {
  const view = await desk.handlers['menu.get']({ handle }).catch((error: unknown) => {
    throw namingHandle(handle, error);
  });
  out.result(view, () =>
    [
      offlineLine(view),
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
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

/**
 * The selection as the person chose it; owned reports in it are left out by core unless --include-owned
 * (or --rebuy) says to buy them again. --missing is --all that can never include owned reports.
 */
export function selectionFrom(flags: Flags): { selection: Selection; includeOwned: boolean } {
  const dates = flags.from !== undefined || flags.to !== undefined;
  const includeOwned = Boolean(flags['include-owned'] || flags.rebuy);
  if (flags.missing && dates) {
    throw new UsageError(
      '--missing cannot be combined with --from/--to: owned reports in a date range are left out by default',
    );
  }
  if (flags.missing && includeOwned) {
    throw new UsageError('--missing cannot be combined with --include-owned/--rebuy');
  }
  const chosen = [flags.all, dates, flags.ids !== undefined, flags.missing].filter(Boolean);
  if (chosen.length !== 1) throw new UsageError('choose exactly one of --all, --from/--to, --ids, --missing');
  if (flags.all || flags.missing) return { selection: { kind: 'all' }, includeOwned };
  if (flags.ids !== undefined) {
    const ids = flags.ids
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0) throw new UsageError('--ids needs at least one report id');
    return { selection: { kind: 'ids', ids }, includeOwned };
  }
  return { selection: { kind: 'dates', ...dateRange(flags.from, flags.to) }, includeOwned };
}

/** The live quote of the flags' selection; when everything chosen is owned, says how to buy it again. */
async function quoteFor(desk: DeskCore, out: Output, handle: string, flags: Flags): Promise<QuoteView> {
  // The flags are checked before anything is said to be under way.
  const { selection, includeOwned } = selectionFrom(flags);
  out.progress('asking the service for the live price…');
  try {
    return await desk.handlers['quote.get']({ handle, selection, includeOwned });
  } catch (error) {
    if (error instanceof DeskError && error.code === 'unknown_handle') throw namingHandle(handle, error);
    if (error instanceof DeskError && error.code === 'all_owned' && !flags.missing) {
      throw new DeskError(
        'all_owned',
        `${error.message.replace(/ Buying them again needs an explicit choice\.$/, '')} Add --include-owned to buy them again.`,
        'usage',
      );
    }
    throw error;
  }
}

/** The owned reports of the choice: left out (and what they would cost), or bought again. */
function ownedLine(view: QuoteView): string {
  if (view.ownedCount === 0) return '';
  const cost = formatUnitsUsd(view.ownedCostUnits);
  return view.includesOwned
    ? `includes ${count(view.ownedCount, 'report')} you already own, bought again for ${cost}`
    : `${count(view.ownedCount, 'report')} you already own ${view.ownedCount === 1 ? 'is' : 'are'} left out (buying ${view.ownedCount === 1 ? 'it' : 'them'} again: ${cost}, add --include-owned)`;
}

/** Whether buy reads the choice with the library secret: the quote's default, unless --pay. */
const readsWithSecret = (view: QuoteView, flags: Flags) =>
  view.paidWith === 'library_secret' && !(flags.pay ?? false);

/** What buy will do with this quote, when it is not simply paying the price above. */
function buyWillLine(view: QuoteView, flags: Flags): string {
  if (readsWithSecret(view, flags))
    return `buy will read ${view.reportCount === 1 ? 'it' : 'them'} with the library secret: nothing is paid (buy --pay pays ${formatUnitsUsd(view.amount)} instead)`;
  if (view.secretAvailable && flags.pay)
    return 'buy --pay pays this instead of reading with the library secret';
  return '';
}

/** In a team: what the team says of these reports before anything is signed (decision 0050). */
function teamLine(view: QuoteView): string {
  const team = view.team;
  if (team === null) return '';
  if (!team.reachable) return `buy needs the team, and it did not answer: ${team.reason}`;
  if (team.refusal) return `team: buying these now would be refused: ${team.refusal.message}`;
  return 'team: no one owns or is buying these reports; buy reserves them for the team first';
}

export async function quote(desk: DeskCore, out: Output, handle: string, flags: Flags) {
  const view = await quoteFor(desk, out, handle, flags);
  out.result(view, () =>
    [
      `${count(view.reportCount, 'report')} of @${view.handle} at ${formatUnitsUsd(view.unitPriceUnits)} each: ${formatUnitsUsd(view.amount)} (${view.amount} USDC base units)`,
      buyWillLine(view, flags),
      ownedLine(view),
      teamLine(view),
      `pay to ${view.payTo} (${view.payToStatus}) on ${view.network}, token ${view.asset}`,
      quoteOptionSentence(view) ?? '',
      quoteFactsSentence(view) ?? '',
      view.overPurchaseCap || view.overDailyCap ? 'over your spend cap: add --over-cap to buy anyway' : '',
      view.overHandleBudget
        ? `over the monthly budget for @${view.handle}: add --over-cap to buy anyway`
        : '',
      view.unresolved
        ? `an earlier purchase of these reports (${view.unresolved.purchaseId}) is ${view.unresolved.state === 'in_doubt' ? 'in doubt' : 'still on its way'}: buy refuses them until \`purchases\` shows it resolved`
        : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return view;
}

/** `cannotSign`: why the desk cannot sign a payment now (from prepareSigner), said before any "paying…". */
export async function buy(
  desk: DeskCore,
  out: Output,
  handle: string,
  flags: Flags,
  cannotSign: DeskError | null = null,
): Promise<void> {
  if (!flags.yes)
    throw new UsageError('buy spends money: check the price with `quote` first, then add --yes');
  const stopSaying = sayWhatAnInterruptLeaves((text) => process.stderr.write(text));
  try {
    await buyQuoted(desk, out, handle, flags, cannotSign);
  } finally {
    stopSaying();
  }
}

async function buyQuoted(
  desk: DeskCore,
  out: Output,
  handle: string,
  flags: Flags,
  cannotSign: DeskError | null,
): Promise<void> {
  const view = await quoteFor(desk, out, handle, flags);
  const withSecret = readsWithSecret(view, flags);
  if (!withSecret && cannotSign) throw cannotSign;
  const owned = ownedLine(view);
  if (owned) out.progress(owned);
  for (const line of [quoteOptionSentence(view), quoteFactsSentence(view)]) if (line) out.progress(line);
  // Said only when nothing the quote already shows will stop it: a cap, a budget or a changed payee is
  // refused before anything is signed, and "paying…" then would be untrue.
  const refusedFirst =
    (!(flags['over-cap'] ?? false) && (view.overPurchaseCap || view.overDailyCap || view.overHandleBudget)) ||
    (!(flags['accept-payee'] ?? false) && view.payToStatus === 'changed') ||
    view.unresolved !== null;
  if (withSecret)
    out.progress(`reading ${count(view.reportCount, 'report')} with the library secret (nothing is paid)…`);
  else if (!refusedFirst)
    out.progress(`paying ${formatUnitsUsd(view.amount)} for ${count(view.reportCount, 'report')}…`);
  const outcome = await withConsent(
    flags,
    'go over a cap or a budget',
    'environment-or-terminal',
    (passphrase) =>
      desk.handlers['purchase.start']({
        quoteId: view.quoteId,
        confirmedAmount: view.amount,
        acceptOverCap: flags['over-cap'] ?? false,
        ...(passphrase === undefined ? {} : { passphrase }),
        acceptPayToChange: flags['accept-payee'] ?? false,
        paidWith: withSecret ? 'library_secret' : 'payment',
      }),
  );
  out.result(outcome, () => {
    if (outcome.status === 'completed' && outcome.purchase.paidWith === 'library_secret')
      return `read ${count(outcome.purchase.reportIds.length, 'report')} with the library secret; nothing was paid`;
    if (outcome.status === 'completed') {
      const { id, txHash } = outcome.purchase;
      return [
        `bought ${count(outcome.purchase.reportIds.length, 'report')} for ${formatUnitsUsd(outcome.purchase.amount)}: purchase ${id}${txHash ? `, transaction ${txHash}` : ''}`,
        `its receipt: intel-desk receipt ${id}`,
      ].join('\n');
    }
    if (outcome.status === 'in_doubt') return `IN DOUBT: ${outcome.message}`;
    if (outcome.status === 'failed') return `FAILED: ${outcome.message}`;
    return 'the wallet must sign in the app';
  });
  if (outcome.status === 'failed') process.exitCode = 4;
  if (outcome.status === 'in_doubt') process.exitCode = 5;
}
