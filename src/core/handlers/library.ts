/** The offline library: listing, search, one report with its history, export. */
import type { ReportView } from '../../shared/rpc';
import { intelReportSnapshotSchema, type IntelReportSnapshot } from '../../shared/wire';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { snapshotMarkdown } from '../export';

function loadSnapshot(
  ctx: DeskContext,
  id: string,
): { snapshot: IntelReportSnapshot; raw: string; handle: string } | null {
  const stored = ctx.snapshots.raw(id);
  if (!stored) return null;
  const parsed = intelReportSnapshotSchema.safeParse(JSON.parse(stored.raw));
  if (!parsed.success) {
    throw new DeskError('snapshot_damaged', `The stored copy of report ${id} is damaged.`, 'storage');
  }
  return { snapshot: parsed.data, raw: stored.raw, handle: stored.handle };
}

export function reportGet(ctx: DeskContext, id: string): ReportView {
  const found = loadSnapshot(ctx, id);
  if (!found) throw new DeskError('report_not_owned', `Report ${id} is not in your library.`, 'usage');
  const previousId = found.snapshot.previousReportId;
  const previous = previousId ? (loadSnapshot(ctx, previousId)?.snapshot ?? null) : null;
  return { snapshot: found.snapshot, timeline: ctx.snapshots.timeline(found.handle), previous };
}

export function reportExport(ctx: DeskContext, id: string, format: 'json' | 'md') {
  const found = loadSnapshot(ctx, id);
  if (!found) throw new DeskError('report_not_owned', `Report ${id} is not in your library.`, 'usage');
  const base = `${found.handle}-${found.snapshot.createdAt.slice(0, 10)}-${id}`.replace(
    /[^A-Za-z0-9_.-]/g,
    '_',
  );
  return format === 'json'
    ? { filename: `${base}.json`, mimeType: 'application/json', content: found.raw }
    : {
        filename: `${base}.md`,
        mimeType: 'text/markdown',
        content: snapshotMarkdown(found.handle, found.snapshot),
      };
}
