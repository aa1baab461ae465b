/** The offline library: listing, search, one report with its history, export. */
import type {
  ExportFormat,
  ExportedFile,
  LibraryPage,
  ReportView,
  RpcInput,
  SearchView,
} from '../../shared/rpc';
import { intelReportSnapshotSchema, type IntelReportSnapshot } from '../../shared/wire';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { snapshotMarkdown } from '../export';
import { snapshotPdf } from '../export-pdf';

interface Loaded {
  snapshot: IntelReportSnapshot;
  raw: string;
  handle: string;
  serviceUrl: string;
}

/** A page of the library; without a limit, all of it in one page (the CLI's `library`). */
export function libraryList(ctx: DeskContext, input: RpcInput<'library.list'>): LibraryPage {
  if (input.limit === undefined) {
    const items = ctx.snapshots.list(input.handle);
    const page = ctx.snapshots.page({ handle: input.handle, limit: 1 });
    return { items, total: page.total, totalSpentUsd: page.totalSpentUsd, nextCursor: null };
  }
  return ctx.snapshots.page({ ...input, limit: input.limit });
}

export function librarySearch(ctx: DeskContext, input: RpcInput<'library.search'>): SearchView {
  return ctx.snapshots.searchPage({
    text: input.text,
    handle: input.handle,
    limit: input.limit ?? 50,
    offset: input.offset ?? 0,
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

export function reportGet(ctx: DeskContext, id: string, serviceUrl: string | null): ReportView {
  const found = loadSnapshot(ctx, id, serviceUrl);
  if (!found) throw new DeskError('report_not_owned', `Report ${id} is not in your library.`, 'usage');
  const previousId = found.snapshot.previousReportId;
  const previous = previousId ? (loadSnapshot(ctx, previousId, found.serviceUrl)?.snapshot ?? null) : null;
  return {
    snapshot: found.snapshot,
    serviceUrl: found.serviceUrl,
    timeline: ctx.snapshots.timeline(found.serviceUrl, found.handle),
    previous,
  };
}

export async function reportExport(
  ctx: DeskContext,
  id: string,
  serviceUrl: string | null,
  format: ExportFormat,
): Promise<ExportedFile> {
  const found = loadSnapshot(ctx, id, serviceUrl);
  if (!found) throw new DeskError('report_not_owned', `Report ${id} is not in your library.`, 'usage');
  const base = `${found.handle}-${found.snapshot.createdAt.slice(0, 10)}-${id}`.replace(
    /[^A-Za-z0-9_.-]/g,
    '_',
  );
  if (format === 'json')
    return { filename: `${base}.json`, mimeType: 'application/json', content: found.raw, encoding: 'utf8' };
  if (format === 'md') {
    const content = snapshotMarkdown(found.handle, found.snapshot);
    return { filename: `${base}.md`, mimeType: 'text/markdown', content, encoding: 'utf8' };
  }
  const pdf = await snapshotPdf(found.handle, found.snapshot);
  return {
    filename: `${base}.pdf`,
    mimeType: 'application/pdf',
    content: pdf.toString('base64'),
    encoding: 'base64',
  };
}
