/** A stored report as the text search finds it by, read without trusting its JSON. */
import type { IntelReportSnapshot } from '../../shared/wire';

/**
 * The text a report is found by: every string of the narrative and change summary, in document order, cut at
 * MAX_INDEXED_CHARS so one oversized report cannot grow the index without bound. Iterative: a paid snapshot
 * nested thousands of levels deep must still be stored and indexed, never overflow the stack after payment.
 */
const MAX_INDEXED_CHARS = 64 * 1024;

export function searchableText(snapshot: Pick<IntelReportSnapshot, 'changeSummary' | 'narrative'>): string {
  const parts: string[] = [];
  let length = 0;
  const pending: unknown[] = [snapshot.changeSummary, snapshot.narrative];
  while (pending.length > 0 && length < MAX_INDEXED_CHARS) {
    const value = pending.pop();
    if (typeof value === 'string') {
      parts.push(value);
      length += value.length + 1;
    } else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
    else if (value && typeof value === 'object') pending.push(...Object.values(value).reverse());
  }
  const text = parts.join('\n');
  return text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text;
}

export type Indexable = Pick<IntelReportSnapshot, 'changeSummary' | 'narrative' | 'analytics'>;

export function parsedRaw(raw: string | undefined): Indexable | null {
  if (raw === undefined) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<IntelReportSnapshot> | null;
    return parsed && typeof parsed === 'object'
      ? {
          changeSummary: parsed.changeSummary,
          narrative: parsed.narrative ?? {},
          analytics: parsed.analytics ?? {},
        }
      : null;
  } catch {
    return null;
  }
}

/** The text a stored report is found by ('' for JSON that is not a report): for snippets of shown hits. */
export function textOfRaw(raw: string): string {
  const parsed = parsedRaw(raw);
  return parsed ? searchableText(parsed) : '';
}
