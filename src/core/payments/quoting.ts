/** Live pricing: the 402 challenge for exactly the user's selection, validated into a held quote. */
import type { MenuItemView, Selection } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import { plural } from '../../shared/words';
import { normalizeHandle, resourcePath, type ServiceClient } from '../client/service-client';
import type { CatalogService } from '../catalog/catalog-service';
import type { SnapshotStore } from '../library/snapshots';
import type { KnownTokens } from '../wallet/balances';
import type { LibrarySecret } from '../library/library-secret';
import { quoteFromChallenge, type Quote } from './quote';
import type { HeldQuote, QuoteBook } from './quote-book';

/** What pricing reads of the desk (desk/payments.ts hands it over): named here so this module needs no context. */
export interface QuotingDeps {
  client(): ServiceClient;
  readonly catalogService: Pick<CatalogService, 'menu'>;
  readonly snapshots: Pick<SnapshotStore, 'ownedIds'>;
  readonly quotes: Pick<QuoteBook, 'hold'>;
  readonly tokens: Pick<KnownTokens, 'learn'>;
  readonly demo: boolean;
  readonly demoAsset: `0x${string}` | null;
  readonly librarySecret: Pick<LibrarySecret, 'current'>;
}

const ALLOWLIST_CODES = new Set(['network_not_allowed', 'asset_not_allowed']);

/** The service compares createdAt strings with inclusive bounds (spec 4.4; the reference service does). */
function inRange(item: MenuItemView, from: string | undefined, to: string | undefined): boolean {
  return (from === undefined || item.createdAt >= from) && (to === undefined || item.createdAt <= to);
}

interface Resolved {
  /** What will be asked for and paid. */
  selection: Selection;
  /** The ids that selection must deliver. */
  expectedIds: string[];
  /** Of those, the ones owned already, bought again by choice. */
  ownedWhenQuoted: string[];
  /** Why that many, for a refusal when the challenge says otherwise. */
  countSource: string;
  ownedCount: number;
  missingCount: number;
  includesOwned: boolean;
}

/**
 * The person's choice as ids from the menu (all, dates) or as given (ids), split into owned and missing.
 * Owned reports are left out unless buying them again was chosen: then the choice goes to the service as made.
 */
async function resolveSelection(
  ctx: QuotingDeps,
  handle: string,
  selection: Selection,
  includeOwned: boolean,
): Promise<Resolved> {
  let covered: string[];
  let owned: Set<string>;
  let countSource: (n: number) => string;
  if (selection.kind === 'ids') {
    covered = [...new Set(selection.ids)];
    owned = ctx.snapshots.ownedIds(ctx.client().baseUrl, handle);
    countSource = (n) => `your selection is ${n}`;
  } else {
    const menu = await ctx.catalogService.menu(handle);
    const items =
      selection.kind === 'all'
        ? menu.reports
        : menu.reports.filter((item) => inRange(item, selection.from, selection.to));
    covered = items.map((item) => item.id);
    owned = new Set(items.filter((item) => item.owned).map((item) => item.id));
    countSource =
      selection.kind === 'all'
        ? (n) => `the menu lists ${n}`
        : (n) =>
            `the menu lists ${n} in this date range; refresh the menu and choose again. Nothing was signed`;
  }
  const ownedIds = covered.filter((id) => owned.has(id));
  const missing = covered.filter((id) => !owned.has(id));
  const counts = { ownedCount: ownedIds.length, missingCount: missing.length };
  if (includeOwned || ownedIds.length === 0) {
    return {
      selection,
      expectedIds: covered,
      ownedWhenQuoted: ownedIds,
      countSource: countSource(covered.length),
      ...counts,
      includesOwned: ownedIds.length > 0,
    };
  }
  if (missing.length === 0) {
    throw new DeskError(
      'all_owned',
      `You own all ${plural(ownedIds.length, 'report')} of @${handle} you chose; nothing is missing. Buying them again needs an explicit choice.`,
      'usage',
      { ownedCount: ownedIds.length },
    );
  }
  return {
    selection: { kind: 'ids', ids: missing },
    expectedIds: missing,
    ownedWhenQuoted: [],
    countSource: `${missing.length} of your choice are missing`,
    ...counts,
    includesOwned: false,
  };
}

async function assertIdsOnMenu(ctx: QuotingDeps, handle: string, ids: string[]): Promise<void> {
  const listed = new Set((await ctx.catalogService.menu(handle)).reports.map((item) => item.id));
  const unknown = ids.filter((id) => !listed.has(id));
  if (unknown.length === 0) return;
  const shown =
    unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : '');
  throw new DeskError(
    'unknown_report_ids',
    `The menu of @${handle} lists no report ${shown}. Nothing was signed.`,
    'usage',
    { unknownIds: unknown.slice(0, 50) },
  );
}

/** Throws unknown_report_ids when the menu lacks some of the ids; a menu that cannot be read says nothing. */
async function nameUnknownIds(ctx: QuotingDeps, handle: string, ids: string[]): Promise<void> {
  try {
    await assertIdsOnMenu(ctx, handle, ids);
  } catch (error) {
    if (error instanceof DeskError && error.code === 'unknown_report_ids') throw error;
  }
}

async function priceResolved(ctx: QuotingDeps, handle: string, resolved: Resolved): Promise<HeldQuote> {
  const client = ctx.client();
  const path = resourcePath(handle, resolved.selection);
  const ids = resolved.selection.kind === 'ids' ? resolved.selection.ids : null;
  let challenge;
  try {
    challenge = await client.challenge(path);
  } catch (error) {
    // "No report matches" for ids the person typed: say which of them the menu does not list.
    if (ids && error instanceof DeskError && error.code === 'no_matching_reports')
      await nameUnknownIds(ctx, handle, ids);
    throw error;
  }
  // A service that does not say how many reports it charges for is checked against the count the desk expects,
  // so ids the menu does not list must not silently shrink that count.
  const counted = challenge.extensions?.reportCount;
  if (ids && counted === undefined) await assertIdsOnMenu(ctx, handle, ids);
  // One that counts fewer than were typed was given an id it does not hold: named rather than refused as a
  // count mismatch, when the menu can tell.
  else if (ids && counted !== resolved.expectedIds.length) await nameUnknownIds(ctx, handle, ids);
  const expect = {
    demo: ctx.demo,
    demoAsset: ctx.demoAsset,
    resourcePath: path,
    expectedReportCount: resolved.expectedIds.length,
    expectedCountSource: resolved.countSource,
  };
  let quote: Quote;
  let secretReadOnly = false;
  try {
    quote = quoteFromChallenge(challenge, expect);
  } catch (error) {
    // A read with the library secret signs nothing, so the networks Intel Desk pays on do not limit it.
    const allowlist = error instanceof DeskError && ALLOWLIST_CODES.has(error.code);
    if (!allowlist || ctx.librarySecret.current() === null) throw error;
    const asset = challenge.accepts[0]?.asset ?? null;
    quote = quoteFromChallenge(challenge, { ...expect, demo: true, demoAsset: asset });
    secretReadOnly = true;
  }
  ctx.tokens.learn(client.baseUrl, { network: quote.network, asset: quote.asset });
  return ctx.quotes.hold({
    serviceUrl: client.baseUrl,
    handle: normalizeHandle(handle),
    selection: resolved.selection,
    quote,
    expectedIds: resolved.expectedIds,
    ownedWhenQuoted: resolved.ownedWhenQuoted,
    ...(secretReadOnly ? { secretReadOnly } : {}),
  });
}

/** A fresh challenge for the same request: what it must deliver stays what the first quote said. */
export async function requote(ctx: QuotingDeps, held: HeldQuote): Promise<HeldQuote> {
  return priceResolved(ctx, held.handle, {
    selection: held.selection,
    expectedIds: held.expectedIds,
    ownedWhenQuoted: held.ownedWhenQuoted,
    countSource: `the first quote was for ${held.expectedIds.length}`,
    ownedCount: 0,
    missingCount: held.expectedIds.length,
    includesOwned: false,
  });
}

/** What the choice came to: the held quote, and how the choice splits into owned and missing reports. */
export interface PricedChoice {
  held: HeldQuote;
  ownedCount: number;
  missingCount: number;
  includesOwned: boolean;
}

/** Prices the person's choice from a live challenge and holds the quote for purchase.start. */
export async function priceChoice(
  ctx: QuotingDeps,
  rawHandle: string,
  selection: Selection,
  includeOwned: boolean,
): Promise<PricedChoice> {
  const handle = normalizeHandle(rawHandle);
  const resolved = await resolveSelection(ctx, handle, selection, includeOwned);
  const held = await priceResolved(ctx, handle, resolved);
  const { ownedCount, missingCount, includesOwned } = resolved;
  return { held, ownedCount, missingCount, includesOwned };
}
