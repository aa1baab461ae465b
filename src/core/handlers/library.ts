/** The offline library: listing, search, one report with its history, export. */
import type {
  ExportFormat,
  ExportedFile,
  LibraryPage,
  ReportView,
  RpcHandlers,
  RpcInput,
  SearchView,
} from '../../shared/rpc';
import { intelReportSnapshotSchema, type IntelReportSnapshot } from '../../shared/wire';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { snapshotMarkdown, type Provenance } from '../export';
import { snapshotPdf } from '../export-pdf';
import { diffReports } from '../report-diff';
import type { ReportDiff } from '../../shared/report-diff';
import { normalizeHandle } from '../client/service-client';
import { menuGaps } from '../cache/menu-gaps';

interface Loaded {
  snapshot: IntelReportSnapshot;
  raw: string;
  handle: string;
  serviceUrl: string;
}

/** A page of the library; without a limit, all of it in one page (the CLI's `library`). */
/** A handle asked for by name is checked as the service would, so a typo is named instead of matching nothing. */
const handleOf = (handle: string | undefined) => (handle === undefined ? undefined : normalizeHandle(handle));

function libraryList(ctx: DeskContext, rawInput: RpcInput<'library.list'>): LibraryPage {
  const input = { ...rawInput, handle: handleOf(rawInput.handle) };
  if (input.limit === undefined) {
    const items = ctx.snapshots.list(input.handle);
    const page = ctx.snapshots.page({ handle: input.handle, limit: 1 });
    return { items, total: page.total, totalSpentUnits: page.totalSpentUnits, nextCursor: null };
  }
  return ctx.snapshots.page({ ...input, limit: input.limit });
}

function librarySearch(ctx: DeskContext, input: RpcInput<'library.search'>): SearchView {
  return ctx.snapshots.searchPage({
    text: input.text,
    handle: handleOf(input.handle),
    limit: input.limit ?? 50,
    offset: input.offset ?? 0,
    prefixLast: input.prefixLast,
  });
}

function loadSnapshot(ctx: DeskContext, id: string, serviceUrl: string | null): Loaded | null {
  const stored = ctx.snapshots.raw(id, serviceUrl, ctx.client().baseUrl);
  if (!stored) return null;
  const parsed = intelReportSnapshotSchema.safeParse(JSON.parse(stored.raw));
  if (!parsed.success) {
    throw new DeskError('snapshot_damaged', `The stored copy of report ${id} is damaged.`, 'storage');
  }
  return { snapshot: parsed.data, raw: stored.raw, handle: stored.handle, serviceUrl: stored.serviceUrl };
}

function ownedSnapshot(ctx: DeskContext, id: string, serviceUrl: string | null): Loaded {
  const found = loadSnapshot(ctx, id, serviceUrl);
  if (found) return found;
  const handle = ctx.catalog.handleOfReport(ctx.serviceUrl(), id);
  throw new DeskError(
    'report_not_owned',
    `Report ${id} is not in your library.`,
    'usage',
    handle ? { handle } : {},
  );
}

interface ReportRef {
  id: string;
  serviceUrl?: string | undefined;
}

function reportDiff(ctx: DeskContext, a: ReportRef, b: ReportRef): ReportDiff {
  const first = ownedSnapshot(ctx, a.id, a.serviceUrl ?? null);
  const second = ownedSnapshot(ctx, b.id, b.serviceUrl ?? first.serviceUrl);
  if (first.snapshot.id === second.snapshot.id && first.serviceUrl === second.serviceUrl) {
    throw new DeskError(
      'same_report',
      `Both sides are report ${a.id}; choose two different reports.`,
      'usage',
    );
  }
  const sameTimeline =
    first.serviceUrl === second.serviceUrl && first.handle.toLowerCase() === second.handle.toLowerCase();
  if (!sameTimeline) return diffReports(first, second, null);
  const [from = '', to = ''] = [first.snapshot.createdAt, second.snapshot.createdAt].sort();
  const between = (entry: { createdAt: string }) => entry.createdAt > from && entry.createdAt < to;
  const owned = ctx.snapshots.timeline(first.serviceUrl, first.handle).filter(between).length;
  // "Consecutive" must mean consecutive on the service, not only in the library.
  const notOwned = menuGaps(ctx, first.serviceUrl, first.handle).notOwned.filter(between).length;
  return diffReports(first, second, owned, notOwned);
}

function reportGet(ctx: DeskContext, id: string, serviceUrl: string | null): ReportView {
  const found = ownedSnapshot(ctx, id, serviceUrl);
  const previousId = found.snapshot.previousReportId;
  const previous = previousId ? (loadSnapshot(ctx, previousId, found.serviceUrl)?.snapshot ?? null) : null;
  const names = ctx.snapshots.handleNames(found.serviceUrl, found.handle);
  return {
    snapshot: found.snapshot,
    serviceUrl: found.serviceUrl,
    handle: found.handle.toLowerCase(),
    username: names.username,
    displayName: names.displayName ?? ctx.catalog.displayNameOf(found.serviceUrl, found.handle),
    timeline: ctx.snapshots.timeline(found.serviceUrl, found.handle),
    ...menuGaps(ctx, found.serviceUrl, found.handle),
    previous,
    purchase: purchaseOf(ctx, found),
    // As in the Library: the desk's own purchase stays its own even when the team has the report too.
    boughtBy:
      ctx.snapshots.purchaseOf(found.serviceUrl, found.snapshot.id) === null
        ? ctx.teamMembership.boughtBy(found.serviceUrl, found.snapshot.id)
        : null,
  };
}

function purchaseOf(ctx: DeskContext, found: Loaded): ReportView['purchase'] {
  const purchaseId = ctx.snapshots.purchaseOf(found.serviceUrl, found.snapshot.id);
  const row = purchaseId ? ctx.ledger.get(purchaseId) : undefined;
  if (!row) return null;
  return { id: row.id, createdAt: row.created_at, paidWith: row.paid_with, txHash: row.tx_hash };
}

function provenanceOf(ctx: DeskContext, found: Loaded): Provenance | null {
  const purchaseId = ctx.snapshots.purchaseOf(found.serviceUrl, found.snapshot.id);
  const row = purchaseId ? ctx.ledger.get(purchaseId) : undefined;
  if (!row) return null;
  return {
    serviceUrl: row.service_url,
    purchasedAt: row.created_at,
    txHash: row.tx_hash,
    paidWithSecret: row.paid_with === 'library_secret',
  };
}

async function reportExport(
  ctx: DeskContext,
  id: string,
  serviceUrl: string | null,
  format: ExportFormat,
): Promise<ExportedFile> {
  const found = ownedSnapshot(ctx, id, serviceUrl);
  const base = `${found.handle}-${found.snapshot.createdAt.slice(0, 10)}-${id}`.replace(
    /[^A-Za-z0-9_.-]/g,
    '_',
  );
  if (format === 'json')
    return { filename: `${base}.json`, mimeType: 'application/json', content: found.raw, encoding: 'utf8' };
  const provenance = provenanceOf(ctx, found);
  const labels = ctx.labels.get(found.serviceUrl, found.snapshot.id);
  const names = ctx.snapshots.handleNames(found.serviceUrl, found.handle);
  // Named as the Report screen names it: the service's spelling and the shelf's display name.
  const subject = {
    username: names.username,
    displayName: names.displayName ?? ctx.catalog.displayNameOf(found.serviceUrl, found.handle),
  };
  if (format === 'md') {
    const content = snapshotMarkdown(subject, found.snapshot, provenance, labels);
    return { filename: `${base}.md`, mimeType: 'text/markdown', content, encoding: 'utf8' };
  }
  const pdf = await snapshotPdf(subject, found.snapshot, provenance, labels);
  return {
    filename: `${base}.pdf`,
    mimeType: 'application/pdf',
    content: pdf.toString('base64'),
    encoding: 'base64',
  };
}

export const libraryHandlers = (
  ctx: DeskContext,
): Pick<
  RpcHandlers,
  'library.list' | 'library.handles' | 'library.search' | 'report.get' | 'report.export' | 'report.diff'
> => ({
  'library.list': async (input) => libraryList(ctx, input),
  'library.handles': async () => ({ handles: ctx.snapshots.handles() }),
  'library.search': async (input) => librarySearch(ctx, input),
  'report.get': async ({ id, serviceUrl }) => reportGet(ctx, id, serviceUrl ?? null),
  'report.export': ({ id, serviceUrl, format }) => reportExport(ctx, id, serviceUrl ?? null, format),
  'report.diff': async ({ a, b }) => reportDiff(ctx, a, b),
});
