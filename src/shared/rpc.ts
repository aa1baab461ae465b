/**
 * The typed RPC contract between the renderer and core. The Electron preload and the web host both expose
 * exactly these methods; inputs are validated with zod where they arrive (IPC handler, HTTP host).
 * Secrets (library secret, private keys, passphrases after use) only ever travel renderer -> core, never back.
 */
import { z } from 'zod';
import type { ReportDiff } from './report-diff';
import { SHELF_SORTS } from './shelf-filter';
import type { Receipt } from './receipt';
import type { LastPriceView, SpendView } from './spend';
export type { HandleSpendView, LastPriceView, SpendView } from './spend';
import type { Bundle, DateRange, IntelReportSnapshot, ReportMenuItem, ShelfEntry } from './wire';

export const handleInput = z.string().trim().min(1).max(100);
const savedSearchName = z.string().trim().min(1).max(80);

export const selectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({
    kind: z.literal('dates'),
    from: z.string().min(1).optional(),
    to: z.string().min(1).optional(),
  }),
  z.object({ kind: z.literal('ids'), ids: z.array(z.string().min(1)).min(1).max(1000) }),
]);
export type Selection = z.infer<typeof selectionSchema>;

/** A day (2026-10-01) or an ISO timestamp, as the ledger's createdAt is compared with it. */
const isoDayOrTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, 'a day (2026-10-01) or an ISO time');

export const exportFormatSchema = z.enum(['json', 'md', 'pdf']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** A file for the person to save; binary formats (PDF) travel base64-encoded. */
export interface ExportedFile {
  filename: string;
  mimeType: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

export type PurchaseState = 'signed' | 'sent' | 'completed' | 'failed' | 'in_doubt';

export interface AppInfo {
  version: string;
  serviceUrl: string;
  demo: boolean;
  online: boolean;
  /**
   * Set when desk.db was damaged or foreign at start: where the old file was moved, and why; `restored` when
   * the newest good backup took its place (which one, when it was taken, how many reports came back).
   */
  databaseRecovered?: {
    path: string;
    reason: string;
    restored?: { file: string; takenAt: string; reports: number };
  };
  /** Set when a read or the background check found the library file damaged while the desk runs. */
  libraryDamaged?: { reason: string; at: string };
}

/** A copy of the library in backups/ (the data folder's). */
export interface BackupView {
  file: string;
  takenAt: string;
  reason: 'purchase' | 'daily' | 'manual' | 'migration' | 'restore';
  bytes: number;
}

export interface BackupsView {
  last: BackupView | null;
  count: number;
  folder: string;
  /** Why the last automatic copy failed, when it did. */
  lastError: string | null;
}

export interface RestoreView {
  /** Reports in the library once restored. */
  reports: number;
  /** The library as it was before, kept in backups/. */
  safetyCopy: BackupView;
}

/** What a restore of purchases from the service (sign-in-with-x) brought back. */
export interface RestoreSummary {
  serviceUrl: string;
  address: string;
  /** Purchases the service listed for the wallet. */
  purchases: number;
  /** Of them, those whose reports were stored now, and how many reports that was. */
  restoredPurchases: number;
  reports: number;
  /** Already whole in the library. */
  alreadyHeld: number;
  /** Refused because a report's bytes differ from the receipt the library holds. */
  differsFromReceipt: number;
  /** Refused for another reason (an answer that is not what was bought, a shape the desk cannot read). */
  refused: number;
  /** The first few refusals, by settlement transaction. */
  problems: { transaction: string; reason: string }[];
}

export type RestorePurchasesStep =
  { status: 'sign'; message: string; address: string } | { status: 'done'; summary: RestoreSummary };

export interface Freshness {
  stale: boolean;
  fetchedAt: string | null;
  /** Why the copy is stale (network error message), when it is. */
  staleReason?: string;
}

export interface ShelfView extends Freshness {
  configured: boolean;
  entries: ShelfEntry[];
  /** Entries the service sent that had no valid handle: left out, and said so. */
  skippedEntries?: number;
}

/** The shelf core holds, without its entries: the Shelf screen asks for those a page at a time. */
export interface ShelfSummary extends Freshness {
  configured: boolean;
  /** Handles on the shelf. */
  total: number;
  skippedEntries?: number;
  /** Changes whenever core holds another shelf: pages asked with an older version are asked again. */
  version: number;
  /** The first page, unfiltered and newest first, when asked for: the first paint needs one answer. */
  first?: ShelfPage;
}

export interface ShelfPage {
  version: number;
  /** Handles that match the filter, in all. */
  matched: number;
  total: number;
  offset: number;
  entries: ShelfEntry[];
}

export interface MenuItemView extends ReportMenuItem {
  owned: boolean;
}

export interface MenuView extends Freshness {
  username: string;
  /** From the shelf, when the shelf names the handle. */
  displayName: string | null;
  reportCount: number;
  reports: MenuItemView[];
}

/** How a quote or purchase is settled: a signed USDC payment, or the first-party library secret (spec 5.8). */
export type PaidWith = 'payment' | 'library_secret';

export interface QuoteView {
  quoteId: string;
  /**
   * What purchase.start does when not told: 'library_secret' when the secret is set (core reads the reports
   * with it and signs nothing), else 'payment'.
   */
  paidWith: PaidWith;
  /** The library secret is set for this service, so the choice can be read with it instead of bought. */
  secretAvailable: boolean;
  /** False when only the secret can settle it: the service asks for a network Intel Desk does not pay on. */
  payable: boolean;
  handle: string;
  /** What is priced and would be paid for: the missing ids of the choice unless owned ones are included. */
  selection: Selection;
  /** How many reports are paid for. */
  reportCount: number;
  /** Reports of the choice already in the library (from this service). */
  ownedCount: number;
  /** Reports of the choice not in the library yet. */
  missingCount: number;
  /** True when the owned reports are bought again (an explicit choice); false when they are left out. */
  includesOwned: boolean;
  /** What buying the owned reports again costs (ownedCount × the unit price); part of the total only if included. */
  ownedCostUsd: number;
  unitPriceUsd: number;
  totalUsd: number;
  /** Integer amount in token base units, as a decimal string. */
  amount: string;
  tokenDecimals: number;
  network: string;
  chainId: number;
  asset: string;
  payTo: string;
  /** 'pinned' = same payee as before, 'new' = first purchase from this service, 'changed' = differs from the pin. */
  payToStatus: 'pinned' | 'new' | 'changed';
  pinnedPayTo: string | null;
  overPurchaseCap: boolean;
  overDailyCap: boolean;
  /** Over the handle's monthly budget, counting what it committed this month; false when it has none. */
  overHandleBudget: boolean;
  /**
   * An earlier purchase of some of these reports that was sent and may still settle (on its way, or in
   * doubt): core refuses to pay for them again until Purchases resolves it.
   */
  unresolved: { purchaseId: string; state: 'sent' | 'in_doubt'; createdAt: string } | null;
  /** Which of the service's payment options is paid (1-based), of how many; the first one the rules allow. */
  option: { number: number; of: number };
  /** Facts of the payment the service stated in its challenge, and facts Intel Desk derived (see QuoteFact). */
  stated: QuoteFact[];
  derived: QuoteFact[];
  fetchedAt: string;
  expiresAt: string;
}

/**
 * A fact a payment is built on. The spec's challenge states each (its `extensions`); a stock x402 server states
 * none, and the desk derives them: the count from its selection against the free menu, the unit price as
 * amount ÷ count, the chain from the network, the decimals from USDC, the selection and resource from its request.
 */
export type QuoteFact = 'reportCount' | 'unitPrice' | 'chainId' | 'tokenDecimals' | 'select' | 'resource';

/**
 * What an unfinished purchase waits for before Intel Desk can settle it; every kind carries a sentence to show.
 * chain: the chain RPC at rpcUrl did not answer (checked again on the next start or refresh).
 * expiry: nothing can be learned before `until` (the authorization's validBefore); after it no charge can happen.
 * A `refusal` (chain, expiry) is the reason the service gave for refusing the payment after it left: believed
 * only once the chain, or without one the desk's clock well past validBefore, says it can no longer settle.
 * chain_access: the authorization has closed, but only a chain RPC URL can tell whether it settled before then.
 * redelivery: paid on chain, the reports never arrived; only the service can deliver them (never paid again).
 */
export type PurchaseWait =
  | { kind: 'chain'; rpcUrl: string; summary: string; refusal?: string | undefined }
  | { kind: 'expiry'; until: string; summary: string; refusal?: string | undefined }
  | { kind: 'chain_access'; summary: string }
  | { kind: 'redelivery'; txHash: string | null; summary: string }
  /** Paid and answered, but the disk was full: the answer is kept and stored on the next check. */
  | { kind: 'storage'; summary: string };

export interface PurchaseView {
  id: string;
  paidWith: PaidWith;
  handle: string;
  resource: string;
  reportCount: number;
  amount: string;
  amountUsd: number;
  /**
   * What actually left the wallet, in USD: the amount once settled (completed, or paid on chain and not yet
   * delivered), 0 when failed or read with the library secret, null while unknown (in doubt: up to amountUsd).
   */
  movedUsd: number | null;
  payer: string;
  payTo: string;
  network: string;
  state: PurchaseState;
  txHash: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  reportIds: string[];
  /** Set while the purchase is in doubt: what its reconciliation waits for. Absent or null otherwise. */
  waitingFor?: PurchaseWait | null;
  /** When reconciliation last looked at this purchase (start of the app, or purchases.reconcile). */
  checkedAt?: string | null;
}

export interface PurchasesView {
  purchases: PurchaseView[];
  spentTodayUsd: number;
  dailyCapUsd: number;
  perPurchaseCapUsd: number;
}

export interface LibraryItem {
  id: string;
  /** The service the report was bought from: report ids are unique only within one service. */
  serviceUrl: string;
  /** The handle as a key: lower case. */
  handle: string;
  /** The handle as it was bought, in its own case. */
  username: string;
  /** The handle's display name from the shelf, when the shelf has named it. */
  displayName: string | null;
  createdAt: string;
  model: string;
  postCount: number | null;
  dateRange: DateRange | null;
  purchasedAt: string;
  /** This report's share of what its purchase cost, in USD; 0 when read with the library secret. */
  spentUsd: number;
  /** The person's own tags (lower case, A to Z) and note on the report; kept when it is bought again. */
  tags: string[];
  note: string | null;
}

export interface ReportLabels {
  id: string;
  serviceUrl: string;
  tags: string[];
  /** Empty when there is no note. */
  note: string;
  noteUpdatedAt: string | null;
}

export interface SavedSearch {
  id: number;
  name: string;
  query: string;
  createdAt: string;
  updatedAt: string;
}

/** Columns the library sorts by; each has an index in desk.db, so any page is as fast as the first. */
export const librarySortSchema = z.enum(['date', 'handle', 'purchased', 'spent']);
export type LibrarySort = z.infer<typeof librarySortSchema>;

export interface LibraryPage {
  items: LibraryItem[];
  /** Reports matching the filter, and what they cost together, in USD. */
  total: number;
  totalSpentUsd: number;
  /** Opaque; pass it back to get the page after this one. null on the last page. */
  nextCursor: string | null;
}

export interface SearchHit extends LibraryItem {
  /** Plain text with match markers \u0001 ... \u0002 around matched terms; the renderer styles them. */
  snippet: string;
}

export interface LibraryHandle {
  handle: string;
  username: string;
  displayName: string | null;
  reports: number;
}

/** How far a search can be paged: past the count's limit the hits go on, most recently bought first. */
export const MAX_SEARCH_OFFSET = 10_000;

export interface SearchView {
  hits: SearchHit[];
  /** Reports that match, counted up to a limit (1,000); `countCapped` says there are more. */
  count: number;
  countCapped: boolean;
  /**
   * best: ranked by bm25 (words, and few enough matches to rank); bought: too many matches to rank, the most
   * recently bought first; newest: no words to rank by, the newest reports first.
   */
  order: 'best' | 'bought' | 'newest';
  /** The words and phrases searched for, as understood (for "no match for …"). */
  terms: string[];
}

/** One owned report in its handle's timeline. */
export interface TimelineEntry {
  id: string;
  createdAt: string;
  model: string;
  postCount: number | null;
  /** The report its change summary is against (the chain of `previousReportId`); null on the baseline. */
  previousReportId: string | null;
  /** The change summary in one line, when the service wrote it as words (`headline`, `summary` or `text`). */
  changeHeadline: string | null;
}

/** A report of the handle its last menu seen lists and the library does not hold. */
export interface NotOwnedReport {
  id: string;
  createdAt: string;
  model: string;
  postCount: number;
}

export interface ReportView {
  snapshot: IntelReportSnapshot;
  /** The service this copy was bought from; the timeline and `previous` are from the same service. */
  serviceUrl: string;
  /** The handle the report is about: as a key (lower case), as it was bought, and its name on the shelf. */
  handle: string;
  username: string;
  displayName: string | null;
  /** This handle's owned reports, oldest first, for navigation over time (time and model tell apart a day's). */
  timeline: TimelineEntry[];
  /**
   * The handle's reports on its last menu seen that are not owned, oldest first: the timeline's gaps. With
   * `timeline` they count the handle's reports; `menuCount` is null when no menu of the handle was seen.
   */
  notOwned: NotOwnedReport[];
  menuCount: number | null;
  previous: IntelReportSnapshot | null;
  /** The purchase that stored this copy, when the ledger holds it (a report restored from a backup may not). */
  purchase?: { id: string; createdAt: string; paidWith: PaidWith; txHash: string | null } | null;
}

/** Where the chain RPC in use was chosen: this run (--rpc, the demo), Settings, or the network's public default. */
export type ChainRpcSource = 'run' | 'settings' | 'default';

export interface WalletView {
  kind: 'keystore' | 'external' | null;
  address: string | null;
  unlocked: boolean;
  /** The balance in token base units (6 decimals for USDC), exact: compare this, never the text. */
  balanceUnits: string | null;
  /** The same for people, every significant decimal ("0.0125"). */
  balanceUsdc: string | null;
  network: string | null;
  /** The chain RPC asked about that network (balance, reconciliation, receipts, signatures), when one is known. */
  chainRpc: { url: string; source: ChainRpcSource } | null;
}

export interface SettingsView {
  serviceUrl: string;
  perPurchaseCapUsd: number;
  dailyCapUsd: number;
  theme: 'light' | 'dark' | 'system';
  /** A secret is stored for the service now selected (accepted, refused or not yet checked). */
  librarySecretSet: boolean;
  /** null = not checked yet; false = refused by the service, so it is not used until entered again. */
  librarySecretAccepted: boolean | null;
  /** The service origin the stored secret was entered for; it is never sent anywhere else. */
  librarySecretOrigin: string | null;
  /** Demo mode: core holds the demo service's public secret and can use it when asked (it never comes out). */
  demoLibrarySecretOffered: boolean;
  /** Set = the WalletConnect connector is offered; not a secret (it identifies the app to the relay). */
  walletConnectProjectId: string | null;
  /** The relay the WalletConnect connector dials: WalletConnect's own unless the run named another (tests). */
  walletConnectRelayUrl: string;
  /** The first-run welcome was closed; kept in desk.db so it stays closed across runs and host ports. */
  welcomeDismissed: boolean;
  /** The chain RPC chosen in Settings; null = the network's public endpoint (a run's --rpc comes first). */
  chainRpcUrl: string | null;
}

/** An http(s) URL, as every URL the desk connects to must be; the same rule in the app and the CLI. */
export const httpUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'Give an http:// or https:// URL.',
  });

/** A WalletConnect Cloud project id: 32 hex characters. */
export const walletConnectProjectIdSchema = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{32}$/i, 'A WalletConnect project id is 32 hexadecimal characters.');

export const settingsPatchSchema = z
  .object({
    serviceUrl: httpUrlSchema.optional(),
    perPurchaseCapUsd: z.number().nonnegative().max(1_000_000).optional(),
    dailyCapUsd: z.number().nonnegative().max(1_000_000).optional(),
    theme: z.enum(['light', 'dark', 'system']).optional(),
    walletConnectProjectId: walletConnectProjectIdSchema.nullable().optional(),
    welcomeDismissed: z.boolean().optional(),
    chainRpcUrl: httpUrlSchema.nullable().optional(),
  })
  .strict();

export interface ExternalSignRequest {
  purchaseId: string;
  /** EIP-712 typed data (TransferWithAuthorization) for the connected wallet; bigints as decimal strings. */
  typedData: {
    domain: { name: string; version: string; chainId: number; verifyingContract: string };
    types: Record<string, { name: string; type: string }[]>;
    primaryType: 'TransferWithAuthorization';
    message: Record<string, string>;
  };
}

export type PurchaseOutcome =
  | { status: 'completed'; purchase: PurchaseView }
  | { status: 'needs_signature'; request: ExternalSignRequest }
  | { status: 'failed'; purchase: PurchaseView | null; code: string; message: string }
  | { status: 'in_doubt'; purchase: PurchaseView; message: string };

/**
 * A purchase an assistant asked for over MCP, waiting for the person's word (docs/decisions/0027-mcp-server.md).
 * pending: nothing paid yet; approving: an approval is paying it now; approved: paid (see purchaseId, whose
 * state says whether it completed or is in doubt); declined by the person; failed: the purchase failed;
 * expired: not approved within a day, so its price is no longer what the person would be shown.
 */
export type PurchaseRequestState = 'pending' | 'approving' | 'approved' | 'declined' | 'failed' | 'expired';

export interface PurchaseRequestView {
  id: string;
  state: PurchaseRequestState;
  serviceUrl: string;
  handle: string;
  selection: Selection;
  includeOwned: boolean;
  /** The price when it was asked for: an approval pays at most this (a higher live price is refused). */
  reportCount: number;
  amount: string;
  totalUsd: number;
  payTo: string;
  network: string;
  /** Why the assistant asked, in its own words: shown to the person, never acted on. */
  reason: string | null;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  purchaseId: string | null;
  /** Why the last approval did not pay (a cap, the wallet, a changed price), or why it failed. */
  error: string | null;
}

export interface DossierView {
  bundle: Bundle;
  /** The service's copy when the draft was opened: the base of a three-way merge. */
  base: Bundle;
  /**
   * Unsaved edits kept in core: one draft per dossier, shared by every window of the desk (and kept over a
   * restart), so the window says whose it is before using it (src/renderer/dossier/draft-owner.ts).
   */
  draft: Bundle | null;
  /** When the draft was kept: a window knows its own draft by this. */
  draftSavedAt: string | null;
}

/** Method name -> [input schema, output type]. */
export const rpcInputs = {
  'app.info': z.object({}),
  'shelf.list': z.object({ refresh: z.boolean().optional() }),
  /** Asks the service (with its ETag) and keeps what it answers for shelf.page. */
  'shelf.summary': z.object({
    refresh: z.boolean().optional(),
    firstPage: z.number().int().min(1).max(500).optional(),
  }),
  /** Filtered and sorted in core from the shelf of the last shelf.summary; no request to the service. */
  'shelf.page': z.object({
    version: z.number().int().nonnegative().optional(),
    text: z.string().max(200).optional(),
    sort: z.enum(SHELF_SORTS).optional(),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1).max(500),
  }),
  'menu.get': z.object({ handle: handleInput, refresh: z.boolean().optional() }),
  'quote.get': z.object({
    handle: handleInput,
    selection: selectionSchema,
    /** Buy reports of the choice that are already owned again; by default only the missing ones are priced. */
    includeOwned: z.boolean().optional(),
  }),
  'purchase.start': z.object({
    quoteId: z.string().min(1),
    confirmedAmount: z.string().regex(/^\d+$/),
    acceptPayToChange: z.boolean().optional(),
    acceptOverCap: z.boolean().optional(),
    /**
     * Pay, or read with the library secret (the window always says which, as the person chose); unsaid, the
     * quote's paidWith (the CLI's `buy`).
     */
    paidWith: z.enum(['payment', 'library_secret']).optional(),
  }),
  'purchase.submitSignature': z.object({
    purchaseId: z.string().min(1),
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  }),
  /** The connected wallet will not sign it (it refused, ended the session, or did not answer in time). */
  'purchase.abandonSignature': z.object({ purchaseId: z.string().min(1) }),
  'purchases.list': z.object({}),
  'purchases.reconcile': z.object({}),
  'purchases.spend': z.object({ days: z.number().int().min(1).max(366).optional() }),
  /** A monthly budget for a handle's purchases (USD), or null to clear it. */
  'budget.set': z.object({
    handle: handleInput,
    monthlyUsd: z.number().nonnegative().max(1_000_000).nullable(),
  }),
  'quote.lastPrice': z.object({ handle: handleInput }),
  'library.list': z.object({
    handle: handleInput.optional(),
    sort: librarySortSchema.optional(),
    /** Default: newest, most expensive, latest bought first; handles A to Z. */
    order: z.enum(['asc', 'desc']).optional(),
    /** Without a limit, the whole library in one answer (the CLI's `library`). */
    limit: z.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(1000).optional(),
  }),
  'library.handles': z.object({}),
  /**
   * The query language of docs/search.md: words, "phrases", prefix*, qualifiers, comparisons, AND/OR/NOT and
   * parentheses; words rank the matches (bm25), else the newest first. `prefixLast` (the app while typing)
   * lets a bare last word match as a prefix. A syntax error is 'search_syntax' with its column.
   * Snippets are made for the returned page only.
   */
  'library.search': z.object({
    text: z.string().min(1).max(500),
    handle: handleInput.optional(),
    limit: z.number().int().min(1).max(200).optional(),
    offset: z.number().int().min(0).max(MAX_SEARCH_OFFSET).optional(),
    prefixLast: z.boolean().optional(),
  }),
  'searches.list': z.object({}),
  /** Saving under a name already used replaces that search's query. */
  'searches.save': z.object({ name: savedSearchName, query: z.string().min(1).max(500) }),
  'searches.rename': z.object({ id: z.number().int().positive(), name: savedSearchName }),
  'searches.delete': z.object({ id: z.number().int().positive() }),
  'report.labels': z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
  'report.tag': z.object({
    id: z.string().min(1),
    serviceUrl: z.string().min(1).optional(),
    action: z.enum(['add', 'remove']),
    tag: z.string().min(1).max(41),
  }),
  /** An empty note removes it. */
  'report.note': z.object({
    id: z.string().min(1),
    serviceUrl: z.string().min(1).optional(),
    note: z.string().max(10_000),
  }),
  'report.get': z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
  'report.export': z.object({
    id: z.string().min(1),
    serviceUrl: z.string().min(1).optional(),
    format: exportFormatSchema,
  }),
  'report.diff': z.object({
    a: z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
    b: z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
  }),
  'receipt.get': z.object({ purchaseId: z.string().min(1).max(200), verify: z.boolean().optional() }),
  'receipts.export': z.object({
    purchaseIds: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional(),
    from: isoDayOrTime.optional(),
    to: isoDayOrTime.optional(),
    format: z.enum(['json', 'pdf', 'csv']),
    verify: z.boolean().optional(),
  }),
  /**
   * The balance is of `token` (one a quote asked for) or, without it, of the token the service now selected
   * asked for in its last quote; null until a quote named one.
   */
  'wallet.status': z.object({
    token: z
      .object({ network: z.string().min(1), asset: z.string().regex(/^0x[0-9a-fA-F]{40}$/) })
      .optional(),
  }),
  'wallet.import': z.object({
    privateKey: z.string().optional(),
    keystoreJson: z.string().max(100_000).optional(),
    keystorePassword: z.string().optional(),
    passphrase: z.string().min(1),
    /**
     * The person chose to replace a wallet of another address already set up (its keystore is kept in
     * backups/). Without it such an import is refused with `wallet_exists`, naming both addresses.
     */
    replace: z.boolean().optional(),
  }),
  'wallet.unlock': z.object({ passphrase: z.string().min(1) }),
  /** A key for this run only (the CLI's --key-file): used to sign, never written anywhere. */
  'wallet.useSessionKey': z.object({ privateKey: z.string().min(1) }),
  'wallet.lock': z.object({}),
  'wallet.useExternal': z.object({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }),
  'settings.get': z.object({}),
  'settings.update': settingsPatchSchema,
  /** `fromEnvironment`: the CLI read it from its environment, so it is bound as for a run's secret (below). */
  'settings.setLibrarySecret': z.object({
    secret: z.string().min(1).max(4096),
    fromEnvironment: z.object({ boundTo: z.url().max(2048).optional() }).optional(),
  }),
  'settings.clearLibrarySecret': z.object({}),
  'settings.useDemoLibrarySecret': z.object({}),
  /**
   * A library secret for this run only (the CLI's environment), never stored. It is bound to `boundTo` (an
   * origin the person named for it) or else to the saved service, and refused when this run's service is
   * another one.
   */
  'settings.useSessionLibrarySecret': z.object({
    secret: z.string().min(1).max(4096),
    boundTo: z.url().max(2048).optional(),
  }),
  /** Copies the library into backups/ now (SQLite's online backup, in steps). */
  'library.backup': z.object({}),
  'library.backups': z.object({}),
  /** Replaces the library with a backup file's (checked first); the library as it was is kept in backups/. */
  'library.restore': z.object({ from: z.string().trim().min(1).max(4096) }),
  /**
   * Brings back every purchase the wallet settled at the service (sign-in-with-x). A key in core signs by
   * itself; a wallet in the window gets `sign` steps and answers each with its signature over `message`.
   */
  'library.restorePurchases': z.object({
    /** The wallet's signature over a `sign` step's message, with that message: it names which restore goes on. */
    signed: z
      .object({
        message: z.string().min(1).max(4000),
        signature: z
          .string()
          .regex(/^0x[0-9a-fA-F]+$/)
          .max(20_000),
      })
      .optional(),
  }),
  /**
   * Records a purchase an assistant asks for (MCP): priced live, stored as pending, and nothing is signed.
   * Only `purchaseRequest.approve`, the person's word, pays it.
   */
  'purchaseRequest.create': z.object({
    handle: handleInput,
    selection: selectionSchema,
    includeOwned: z.boolean().optional(),
    reason: z.string().trim().max(500).optional(),
  }),
  'purchaseRequests.list': z.object({
    state: z.enum(['pending', 'approving', 'approved', 'declined', 'failed', 'expired']).optional(),
  }),
  'purchaseRequest.get': z.object({ id: z.string().min(1).max(100) }),
  /**
   * The person approves: a fresh quote, then purchase.start with the same caps, budgets and payee pin as any
   * purchase. Refused when the live price is above the one asked for, or above `limitUsd` (what an MCP
   * session may still approve). A refusal leaves the request pending; one approval claims it, so it pays once.
   */
  'purchaseRequest.approve': z.object({
    id: z.string().min(1).max(100),
    limitUsd: z.number().nonnegative().max(1_000_000).optional(),
    acceptOverCap: z.boolean().optional(),
    acceptPayToChange: z.boolean().optional(),
  }),
  'purchaseRequest.decline': z.object({ id: z.string().min(1).max(100) }),
  'dossier.open': z.object({ handle: handleInput }),
  'dossier.saveDraft': z.object({ handle: handleInput, draft: z.unknown() }),
  'dossier.discardDraft': z.object({ handle: handleInput }),
  'dossier.save': z.object({ handle: handleInput, bundle: z.unknown(), baseGatheredAt: z.string() }),
} as const;

export type RpcMethod = keyof typeof rpcInputs;

/** What the window shows, by kind: what a method reads and what it changes are named in these. */
export type RpcTopic =
  | 'app'
  | 'shelf'
  | 'menu'
  | 'quote'
  | 'purchases'
  | 'library'
  | 'wallet'
  | 'settings'
  | 'dossier'
  | 'searches'
  | 'backups';

/**
 * Per method, what it reads and what it changes. The window refreshes, in one place, every query whose
 * method reads a topic that a finished call (or an event from core, see events.ts) changed, so no screen
 * keeps its own list. A new method fails to compile until it is entered here.
 */
export const rpcEffects: {
  [M in RpcMethod]: { reads: readonly RpcTopic[]; changes: readonly RpcTopic[] };
} = {
  'app.info': { reads: ['app'], changes: [] },
  'shelf.list': { reads: ['shelf'], changes: [] },
  'shelf.summary': { reads: ['shelf'], changes: [] },
  'shelf.page': { reads: ['shelf'], changes: [] },
  'menu.get': { reads: ['menu'], changes: [] },
  // Core tells the balance of the token the last quote asked for: a quote can change what wallet.status says.
  'quote.get': { reads: ['quote'], changes: ['wallet'] },
  // A purchase moves money and stores reports: the quote of the same choice is stale (owned, daily cap).
  'purchase.start': { reads: [], changes: ['purchases', 'library', 'menu', 'wallet', 'quote'] },
  'purchase.submitSignature': { reads: [], changes: ['purchases', 'library', 'menu', 'wallet', 'quote'] },
  'purchase.abandonSignature': { reads: [], changes: ['quote'] },
  'purchases.list': { reads: ['purchases'], changes: [] },
  'purchases.reconcile': { reads: ['purchases'], changes: ['purchases', 'library', 'menu', 'quote'] },
  // Caps and budgets are settings; the totals and charts are the ledger's.
  'purchases.spend': { reads: ['purchases', 'settings'], changes: [] },
  // A budget changes what a quote warns about.
  'budget.set': { reads: [], changes: ['settings', 'quote'] },
  'quote.lastPrice': { reads: ['quote', 'purchases'], changes: [] },
  'library.list': { reads: ['library'], changes: [] },
  'library.handles': { reads: ['library'], changes: [] },
  'library.search': { reads: ['library'], changes: [] },
  'searches.list': { reads: ['searches'], changes: [] },
  'searches.save': { reads: [], changes: ['searches'] },
  'searches.rename': { reads: [], changes: ['searches'] },
  'searches.delete': { reads: [], changes: ['searches'] },
  // Tags and notes show in the Library and are searched with tag: and note:.
  'report.labels': { reads: ['library'], changes: [] },
  'report.tag': { reads: [], changes: ['library'] },
  'report.note': { reads: [], changes: ['library'] },
  'report.get': { reads: ['library'], changes: [] },
  'report.export': { reads: [], changes: [] },
  'report.diff': { reads: ['library'], changes: [] },
  // Verification reads the chain, which no event announces: a receipt is asked for again each time it is opened.
  'receipt.get': { reads: ['purchases'], changes: [] },
  'receipts.export': { reads: [], changes: [] },
  'wallet.status': { reads: ['wallet'], changes: [] },
  'wallet.import': { reads: [], changes: ['wallet'] },
  'wallet.unlock': { reads: [], changes: ['wallet'] },
  'wallet.lock': { reads: [], changes: ['wallet'] },
  'wallet.useExternal': { reads: [], changes: ['wallet'] },
  'wallet.useSessionKey': { reads: [], changes: ['wallet'] },
  'settings.get': { reads: ['settings'], changes: [] },
  // The service URL decides the shelf, menus and prices; caps decide what a quote warns about.
  'settings.update': {
    reads: [],
    changes: ['settings', 'app', 'shelf', 'menu', 'quote', 'purchases', 'wallet'],
  },
  'settings.setLibrarySecret': { reads: [], changes: ['settings', 'quote'] },
  'settings.clearLibrarySecret': { reads: [], changes: ['settings', 'quote'] },
  'settings.useDemoLibrarySecret': { reads: [], changes: ['settings', 'quote'] },
  'settings.useSessionLibrarySecret': { reads: [], changes: ['settings', 'quote'] },
  'library.backup': { reads: [], changes: ['backups'] },
  // Stored reports are followed by an automatic copy.
  'library.backups': { reads: ['backups', 'library'], changes: [] },
  // A restored library is another library: what it owns, its purchases, its settings.
  'library.restore': {
    reads: [],
    changes: ['backups', 'library', 'purchases', 'settings', 'menu', 'quote', 'searches', 'app'],
  },
  'library.restorePurchases': { reads: [], changes: ['library', 'purchases', 'menu', 'quote'] },
  // Requests are purchases not made yet: they show with the purchases, and approving one is a purchase.
  'purchaseRequest.create': { reads: [], changes: ['purchases', 'wallet'] },
  'purchaseRequests.list': { reads: ['purchases'], changes: [] },
  'purchaseRequest.get': { reads: ['purchases'], changes: [] },
  'purchaseRequest.approve': { reads: [], changes: ['purchases', 'library', 'menu', 'wallet', 'quote'] },
  'purchaseRequest.decline': { reads: [], changes: ['purchases'] },
  'dossier.open': { reads: ['dossier'], changes: [] },
  // The editor keeps the saved copy as its new base itself: reopening would throw away what is on screen.
  'dossier.saveDraft': { reads: [], changes: [] },
  'dossier.discardDraft': { reads: [], changes: [] },
  'dossier.save': { reads: [], changes: [] },
};
export type RpcInput<M extends RpcMethod> = z.input<(typeof rpcInputs)[M]>;

export interface RpcOutputs {
  'app.info': AppInfo;
  'shelf.list': ShelfView;
  'shelf.summary': ShelfSummary;
  'shelf.page': ShelfPage;
  'menu.get': MenuView;
  'quote.get': QuoteView;
  'purchase.start': PurchaseOutcome;
  'purchase.submitSignature': PurchaseOutcome;
  /** Whether a signature request was waiting and is now forgotten (a later signature for it is refused). */
  'purchase.abandonSignature': { abandoned: boolean };
  'purchases.list': PurchasesView;
  'purchases.reconcile': PurchasesView;
  'purchases.spend': SpendView;
  /** `unchecked`: why the handle could not be checked against the shelf (no answer and no saved copy). */
  'budget.set': { handle: string; monthlyUsd: number | null; unchecked?: string };
  'quote.lastPrice': LastPriceView | null;
  'library.list': LibraryPage;
  'library.handles': { handles: LibraryHandle[] };
  'library.search': SearchView;
  'searches.list': { searches: SavedSearch[] };
  'searches.save': SavedSearch;
  'searches.rename': SavedSearch;
  'searches.delete': { deleted: boolean };
  'report.labels': ReportLabels;
  'report.tag': ReportLabels;
  'report.note': ReportLabels;
  'report.get': ReportView;
  'report.export': ExportedFile;
  'report.diff': ReportDiff;
  'receipt.get': Receipt;
  'receipts.export': ExportedFile;
  'wallet.status': WalletView;
  'wallet.import': WalletView;
  'wallet.unlock': WalletView;
  'wallet.useSessionKey': WalletView;
  'wallet.lock': WalletView;
  'wallet.useExternal': WalletView;
  'settings.get': SettingsView;
  'settings.update': SettingsView;
  'settings.setLibrarySecret': SettingsView;
  'settings.clearLibrarySecret': SettingsView;
  'settings.useDemoLibrarySecret': SettingsView;
  'settings.useSessionLibrarySecret': SettingsView;
  'library.backup': BackupView;
  'library.backups': BackupsView;
  'library.restore': RestoreView;
  'library.restorePurchases': RestorePurchasesStep;
  'purchaseRequest.create': PurchaseRequestView;
  'purchaseRequests.list': { requests: PurchaseRequestView[] };
  'purchaseRequest.get': PurchaseRequestView;
  'purchaseRequest.approve': { request: PurchaseRequestView; outcome: PurchaseOutcome };
  'purchaseRequest.decline': PurchaseRequestView;
  'dossier.open': DossierView;
  'dossier.saveDraft': { savedAt: string };
  'dossier.discardDraft': { discarded: boolean };
  'dossier.save':
    | { status: 'saved'; bundle: Bundle }
    | { status: 'conflict'; base: Bundle; theirs: Bundle; mine: Bundle }
    | { status: 'not_written'; message: string };
}

/**
 * Errors cross the boundary as data: a stable code and a message fit to show a person, and for the codes of
 * src/shared/rpc-errors.ts their typed details (read them with rpcErrorDetails).
 */
export interface RpcError {
  code: string;
  message: string;
  /** For the codes of rpc-errors.ts only: what the window needs to offer the next step. */
  details?: Record<string, unknown>;
}

export type RpcResult<M extends RpcMethod> =
  { ok: true; value: RpcOutputs[M] } | { ok: false; error: RpcError };

export interface RpcClient {
  call<M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]>;
}

/** What core implements and the hosts (IPC, HTTP) dispatch to, after validating input. */
export type RpcHandlers = {
  [M in RpcMethod]: (input: z.output<(typeof rpcInputs)[M]>) => Promise<RpcOutputs[M]>;
};
