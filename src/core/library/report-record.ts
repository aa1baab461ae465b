/** What a researcher's export says about one owned report: the same facts in front matter and citations. */
import type { PaidWith } from '../../shared/rpc';

export interface ReportRecord {
  /** The handle as a key (lower case), as it was bought, and its name on the shelf. */
  handle: string;
  username: string;
  displayName: string | null;
  reportId: string;
  createdAt: string;
  dateRange: { from: string; to: string } | null;
  model: string;
  postCount: number | null;
  serviceUrl: string;
  /** The purchase that stored it, when the ledger holds it (a report restored from a backup may not). */
  purchase: { id: string; purchasedAt: string; paidWith: PaidWith; txHash: string | null } | null;
  tags: string[];
}

/**
 * A file name from parts the service chose (a handle, a report id): only letters, digits, "-", "_" and ".",
 * no leading dot (a hidden file), no name a Windows folder cannot hold (CON, NUL, COM1…), at most 120
 * characters, so any folder on any system takes it.
 */
export function safeFileName(raw: string): string {
  const kept = raw
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[.\s]+/, '_')
    .slice(0, 120)
    .replace(/[.\s]+$/, '_');
  const name = kept === '' ? '_' : kept;
  return /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(name) ? `_${name}` : name;
}

/** The report's file in its handle's folder, without the extension: its day, then its id. */
export const reportFileName = (record: ReportRecord): string =>
  safeFileName(`${record.createdAt.slice(0, 10)}-${record.reportId}`);
