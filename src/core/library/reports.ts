/**
 * The library as the contract reads it: a page of it, a search, one report with its history and the gaps in
 * its timeline, two reports compared, a report as a file. The reports are the snapshot store's; what the
 * catalog knows of a handle (its display name, its last menu) comes in as functions, so the library does not
 * reach up into catalog/.
 */
import type {
  ExportFormat,
  ExportedFile,
  LibraryPage,
  ReportView,
  RpcInput,
  SearchView,
} from '../../shared/rpc';
import type { ReportDiff } from '../../shared/report-diff';
import { intelReportSnapshotSchema, type IntelReportSnapshot } from '../../shared/wire';
import { handleKey } from '../../shared/handle-key';
import { DeskError } from '../base/errors';
import { normalizeHandle } from '../client/service-client';
import type { PurchaseLedger } from '../ledger/purchases';
import { snapshotMarkdown, type Provenance } from './export';
import { snapshotPdf } from './export-pdf';
import { diffReports } from './report-diff';
import type { ReportLabelStore } from './report-labels';
import type { SnapshotStore } from './snapshots';
import { citationFile } from './citation';
import type { ReportRecord } from './report-record';
import { exportFolder } from './export-folder';

export interface LibraryReportsDeps {
  readonly snapshots: SnapshotStore;
  readonly ledger: Pick<PurchaseLedger, 'get'>;
  readonly labels: Pick<ReportLabelStore, 'get'>;
  /** The selected service as set, and as its client names it (no trailing slash): reports are kept under the latter. */
  serviceUrl(): string;
  baseUrl(): string;
  /** The shelf's display name of a handle, and the handle of a report its saved menus list (catalog/). */
  displayNameOf(serviceUrl: string, handle: string): string | null;
  handleOfReport(serviceUrl: string, id: string): string | null;
  /** Who in the team bought a report pulled from the team library (team/), null for any other. */
  boughtBy(serviceUrl: string, id: string): ReportView['boughtBy'];
  /** The reports the handle's last menu seen lists and the library does not hold (catalog/menu-gaps.ts). */
  menuGaps(serviceUrl: string, handle: string): Pick<ReportView, 'menuCount' | 'notOwned'>;
}

interface Loaded {
  snapshot: IntelReportSnapshot;
  raw: string;
  handle: string;
  serviceUrl: string;
}

interface ReportRef {
  id: string;
  serviceUrl?: string | undefined;
}

/** A handle asked for by name is checked as the service would, so a typo is named instead of matching nothing. */
const handleOf = (handle: string | undefined) => (handle === undefined ? undefined : normalizeHandle(handle));

export class LibraryReports {
  constructor(private readonly deps: LibraryReportsDeps) {}

  /** A page of the library; without a limit, all of it in one page (the CLI's `library`). */
  list(rawInput: RpcInput<'library.list'>): LibraryPage {
    const { snapshots } = this.deps;
    const input = { ...rawInput, handle: handleOf(rawInput.handle) };
    if (input.limit === undefined) {
      const items = snapshots.list(input.handle);
      const page = snapshots.page({ handle: input.handle, limit: 1 });
      return { items, total: page.total, totalSpentUnits: page.totalSpentUnits, nextCursor: null };
    }
    return snapshots.page({ ...input, limit: input.limit });
  }

  search(input: RpcInput<'library.search'>): SearchView {
    return this.deps.snapshots.searchPage({
      text: input.text,
      handle: handleOf(input.handle),
      limit: input.limit ?? 50,
      offset: input.offset ?? 0,
      prefixLast: input.prefixLast,
    });
  }

  /** The owned report's service: tags and notes are only for reports in the library. */
  ownedService(id: string, serviceUrl: string | undefined): string {
    const stored = this.deps.snapshots.raw(id, serviceUrl ?? null, this.deps.baseUrl());
    if (!stored) throw new DeskError('report_not_owned', `Report ${id} is not in your library.`, 'usage');
    return stored.serviceUrl;
  }

  get(id: string, serviceUrl: string | null): ReportView {
    const { snapshots } = this.deps;
    const found = this.owned(id, serviceUrl);
    const previousId = found.snapshot.previousReportId;
    const previous = previousId ? (this.load(previousId, found.serviceUrl)?.snapshot ?? null) : null;
    return {
      snapshot: found.snapshot,
      serviceUrl: found.serviceUrl,
      handle: handleKey(found.handle),
      ...this.names(found),
      timeline: snapshots.timeline(found.serviceUrl, found.handle),
      ...this.deps.menuGaps(found.serviceUrl, found.handle),
      previous,
      purchase: this.purchaseOf(found),
      // As in the Library: the desk's own purchase stays its own even when the team has the report too.
      boughtBy:
        this.deps.snapshots.purchaseOf(found.serviceUrl, found.snapshot.id) === null
          ? this.deps.boughtBy(found.serviceUrl, found.snapshot.id)
          : null,
    };
  }

  diff(a: ReportRef, b: ReportRef): ReportDiff {
    const first = this.owned(a.id, a.serviceUrl ?? null);
    const second = this.owned(b.id, b.serviceUrl ?? first.serviceUrl);
    if (first.snapshot.id === second.snapshot.id && first.serviceUrl === second.serviceUrl) {
      throw new DeskError(
        'same_report',
        `Both sides are report ${a.id}; choose two different reports.`,
        'usage',
      );
    }
    const sameTimeline =
      first.serviceUrl === second.serviceUrl && handleKey(first.handle) === handleKey(second.handle);
    if (!sameTimeline) return diffReports(first, second, null);
    const [from = '', to = ''] = [first.snapshot.createdAt, second.snapshot.createdAt].sort();
    const between = (entry: { createdAt: string }) => entry.createdAt > from && entry.createdAt < to;
    const owned = this.deps.snapshots.timeline(first.serviceUrl, first.handle).filter(between).length;
    // "Consecutive" must mean consecutive on the service, not only in the library.
    const notOwned = this.deps.menuGaps(first.serviceUrl, first.handle).notOwned.filter(between).length;
    return diffReports(first, second, owned, notOwned);
  }

  async export(id: string, serviceUrl: string | null, format: ExportFormat): Promise<ExportedFile> {
    const found = this.owned(id, serviceUrl);
    const base = `${found.handle}-${found.snapshot.createdAt.slice(0, 10)}-${id}`.replace(
      /[^A-Za-z0-9_.-]/g,
      '_',
    );
    if (format === 'json')
      return { filename: `${base}.json`, mimeType: 'application/json', content: found.raw, encoding: 'utf8' };
    if (format === 'csl-json' || format === 'bibtex') return citationFile(this.recordOf(found), format, base);
    const provenance = this.provenanceOf(found);
    const labels = this.deps.labels.get(found.serviceUrl, found.snapshot.id);
    // Named as the Report screen names it: the service's spelling and the shelf's display name.
    const subject = this.names(found);
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

  /** The library, or one handle's reports, as a folder of Markdown files with front matter (decision 0049). */
  exportFolder(dir: string, handle: string | undefined) {
    return exportFolder(dir, handle, this.deps.snapshots.list(handleOf(handle)), async (item) => {
      const found = this.owned(item.id, item.serviceUrl);
      const markdown = (await this.export(item.id, item.serviceUrl, 'md')).content;
      return { record: this.recordOf(found), spentUnits: item.spentUnits, markdown };
    });
  }

  /** The facts a researcher's export and a citation name (decision 0049). */
  private recordOf(found: Loaded): ReportRecord {
    const purchase = this.purchaseOf(found);
    const range = found.snapshot.meta.dateRange;
    return {
      handle: handleKey(found.handle),
      ...this.names(found),
      reportId: found.snapshot.id,
      createdAt: found.snapshot.createdAt,
      dateRange: range ? { from: range.from, to: range.to } : null,
      model: found.snapshot.model,
      postCount: found.snapshot.meta.postCount ?? null,
      serviceUrl: found.serviceUrl,
      purchase: purchase
        ? {
            id: purchase.id,
            purchasedAt: purchase.createdAt,
            paidWith: purchase.paidWith,
            txHash: purchase.txHash,
          }
        : null,
      tags: this.deps.labels.get(found.serviceUrl, found.snapshot.id).tags,
    };
  }

  private load(id: string, serviceUrl: string | null): Loaded | null {
    const stored = this.deps.snapshots.raw(id, serviceUrl, this.deps.baseUrl());
    if (!stored) return null;
    const parsed = intelReportSnapshotSchema.safeParse(JSON.parse(stored.raw));
    if (!parsed.success) {
      throw new DeskError('snapshot_damaged', `The stored copy of report ${id} is damaged.`, 'storage');
    }
    return { snapshot: parsed.data, raw: stored.raw, handle: stored.handle, serviceUrl: stored.serviceUrl };
  }

  private owned(id: string, serviceUrl: string | null): Loaded {
    const found = this.load(id, serviceUrl);
    if (found) return found;
    const handle = this.deps.handleOfReport(this.deps.serviceUrl(), id);
    throw new DeskError(
      'report_not_owned',
      `Report ${id} is not in your library.`,
      'usage',
      handle ? { handle } : {},
    );
  }

  private names(found: Loaded): { username: string; displayName: string | null } {
    const names = this.deps.snapshots.handleNames(found.serviceUrl, found.handle);
    return {
      username: names.username,
      displayName: names.displayName ?? this.deps.displayNameOf(found.serviceUrl, found.handle),
    };
  }

  private purchaseRow(found: Loaded) {
    const purchaseId = this.deps.snapshots.purchaseOf(found.serviceUrl, found.snapshot.id);
    return purchaseId ? this.deps.ledger.get(purchaseId) : undefined;
  }

  private purchaseOf(found: Loaded): ReportView['purchase'] {
    const row = this.purchaseRow(found);
    if (!row) return null;
    return { id: row.id, createdAt: row.created_at, paidWith: row.paid_with, txHash: row.tx_hash };
  }

  private provenanceOf(found: Loaded): Provenance | null {
    const row = this.purchaseRow(found);
    if (!row) return null;
    return {
      serviceUrl: row.service_url,
      purchasedAt: row.created_at,
      txHash: row.tx_hash,
      paidWithSecret: row.paid_with === 'library_secret',
    };
  }
}
