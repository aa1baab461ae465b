/**
 * A paid answer is checked against what was bought before anything is stored, then unpacked into snapshots
 * with each report's bytes exactly as the service sent them.
 */
import { z } from 'zod';
import type { PaidSuccess } from '../../shared/wire';
import { topLevelArrayElements } from '../library/json-slices';
import type { StoredSnapshot } from '../library/snapshots';
import { plural } from '../../shared/words';
import { handleKey } from '../../shared/handle-key';

export function snapshotsFromAnswer(body: PaidSuccess, text: string): StoredSnapshot[] {
  const raws = topLevelArrayElements(text, 'reports');
  return body.reports.map((snapshot, index) => {
    const raw = raws?.[index];
    // The slice is used only when it is provably the same report; otherwise keep a faithful re-serialisation.
    const exact = raw !== undefined && (JSON.parse(raw) as { id?: unknown }).id === snapshot.id;
    return { snapshot, raw: exact ? raw : JSON.stringify(snapshot) };
  });
}

/** What one purchase must deliver: the handle, how many reports, and (when known) exactly which. */
export interface DeliveryExpectation {
  handle: string;
  reportCount: number;
  /** Null for purchases recorded before the ids were kept, where only the handle and count can be checked. */
  ids: string[] | null;
}

/** The part of a ledger row's quote_json that says what was bought. */
const boughtSchema = z.looseObject({
  selection: z.looseObject({ kind: z.string(), ids: z.array(z.string()).optional() }).optional(),
  expectedIds: z.array(z.string()).optional(),
});

export function expectationFromLedger(row: {
  handle: string;
  report_count: number;
  quote_json: string;
}): DeliveryExpectation {
  let json: unknown = null;
  try {
    json = JSON.parse(row.quote_json);
  } catch {
    // A damaged quote_json still leaves the handle and count to check.
  }
  const parsed = boughtSchema.safeParse(json);
  const bought = parsed.success ? parsed.data : {};
  const ids = bought.expectedIds ?? (bought.selection?.kind === 'ids' ? bought.selection.ids : undefined);
  return { handle: row.handle, reportCount: row.report_count, ids: ids ?? null };
}

const list = (ids: string[]) => {
  const shown = ids.slice(0, 5).join(', ');
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more` : shown;
};

/** Why the answer is not what was bought, in words; null when it is exactly that. */
export function deliveryMismatch(expect: DeliveryExpectation, body: PaidSuccess): string | null {
  if (handleKey(body.username) !== handleKey(expect.handle)) {
    return `reports of @${body.username.slice(0, 64)} instead of @${expect.handle}`;
  }
  const sent = body.reports.map((report) => report.id);
  const seen = new Set<string>();
  const twice = sent.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  if (twice.length > 0) return `report ${list([...new Set(twice)])} more than once`;
  if (expect.ids !== null) {
    const bought = new Set(expect.ids);
    const extra = sent.filter((id) => !bought.has(id));
    if (extra.length > 0)
      return extra.length === 1
        ? `report ${list(extra)}, which was not bought`
        : `reports ${list(extra)}, which were not bought`;
    const lacking = expect.ids.filter((id) => !seen.has(id));
    if (lacking.length > 0) {
      return `${sent.length} of the ${expect.reportCount} reports paid for (missing ${list(lacking)})`;
    }
  }
  if (sent.length !== expect.reportCount) {
    return `${plural(sent.length, 'report')} for the ${expect.reportCount} paid for`;
  }
  if (body.reportCount !== sent.length) {
    return `a count of ${body.reportCount} but ${plural(sent.length, 'report')}`;
  }
  return null;
}
