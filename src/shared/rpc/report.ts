/** One stored report: its view over time, labels, export and comparison. */
import { z } from 'zod';
import { method } from './method';
import type { ReportDiff } from '../report-diff';
import type { IntelReportSnapshot } from '../wire';
import type { ExportedFile, PaidWith } from './common';

/** A report as a file; csl-json and bibtex cite it (decision 0049). */
export const exportFormatSchema = z.enum(['json', 'md', 'pdf', 'csl-json', 'bibtex']);

export type ExportFormat = z.infer<typeof exportFormatSchema>;

export interface ReportLabels {
  id: string;
  serviceUrl: string;
  tags: string[];
  /** Empty when there is no note. */
  note: string;
  noteUpdatedAt: string | null;
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
  /** Pulled from the team: who bought it for the team (null for this desk's own copies). */
  boughtBy?: { analyst: string; deskId: string } | null;
}

export const reportMethods = {
  // Tags and notes show in the Library and are searched with tag: and note:.
  'report.labels': method<ReportLabels>()({
    input: z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
    reads: ['library'],
    changes: [],
  }),
  'report.tag': method<ReportLabels>()({
    input: z.object({
      id: z.string().min(1),
      serviceUrl: z.string().min(1).optional(),
      action: z.enum(['add', 'remove']),
      tag: z.string().min(1).max(41),
    }),
    reads: [],
    changes: ['library'],
  }),
  /** An empty note removes it. */
  'report.note': method<ReportLabels>()({
    input: z.object({
      id: z.string().min(1),
      serviceUrl: z.string().min(1).optional(),
      note: z.string().max(10_000),
    }),
    reads: [],
    changes: ['library'],
  }),
  'report.get': method<ReportView>()({
    input: z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
    reads: ['library'],
    changes: [],
  }),
  'report.export': method<ExportedFile>()({
    input: z.object({
      id: z.string().min(1),
      serviceUrl: z.string().min(1).optional(),
      format: exportFormatSchema,
    }),
    reads: [],
    changes: [],
  }),
  'report.diff': method<ReportDiff>()({
    input: z.object({
      a: z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
      b: z.object({ id: z.string().min(1), serviceUrl: z.string().min(1).optional() }),
    }),
    reads: ['library'],
    changes: [],
  }),
};
