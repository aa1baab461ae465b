/** diffReports on hand-built reports: each shape of analytics the spec leaves open, read for what it is. */
import { describe, expect, it } from 'vitest';
import { diffReports } from '../../src/core/library/report-diff';
import type { IntelReportSnapshot } from '../../src/shared/wire';

function report(overrides: Partial<IntelReportSnapshot> = {}): IntelReportSnapshot {
  return {
    id: 'rpt_1',
    createdAt: '2026-10-01T08:00:00.000Z',
    model: 'model-a',
    synthesisSettings: {},
    meta: { postCount: 10 },
    analytics: {},
    narrative: {},
    changeSummary: null,
    previousReportId: null,
    ...overrides,
  };
}

const older = (o: Partial<IntelReportSnapshot>) => ({ handle: 'Alice', snapshot: report(o) });
const newer = (o: Partial<IntelReportSnapshot>) => ({
  handle: 'alice',
  snapshot: report({ id: 'rpt_2', createdAt: '2026-10-09T08:00:00.000Z', ...o }),
});

describe('diffReports', () => {
  it('puts the older report first whichever is given first', () => {
    const a = older({});
    const b = newer({});
    expect(diffReports(b, a, 0)).toEqual(diffReports(a, b, 0));
    expect(diffReports(b, a, 0).older.id).toBe('rpt_1');
    expect(diffReports(a, b, 0).sameHandle).toBe(true);
  });

  it('reads numbers, records of numbers and the post count as metrics, null where a side lacks one', () => {
    const diff = diffReports(
      older({ meta: { postCount: 10 }, analytics: { reach: 5, engagement: { likes: 100, replies: 7 } } }),
      newer({ meta: { postCount: 4 }, analytics: { engagement: { likes: 250 } } }),
      0,
    );
    expect(diff.metrics).toEqual([
      { name: 'postCount', kind: 'value', before: 10, after: 4, delta: -6 },
      { name: 'reach', kind: 'value', before: 5, after: null, delta: null },
      { name: 'engagement.likes', kind: 'value', before: 100, after: 250, delta: 150 },
      { name: 'engagement.replies', kind: 'value', before: 7, after: null, delta: null },
    ]);
  });

  it('compares labelled shares and names topics added and dropped', () => {
    const diff = diffReports(
      older({
        analytics: {
          topicShare: [
            { label: 'rates', value: 0.5 },
            { label: 'housing', value: 0.5 },
          ],
        },
      }),
      newer({
        analytics: {
          topicShare: [
            { label: 'rates', value: 0.3 },
            { label: 'energy', value: 0.7 },
          ],
        },
      }),
      0,
    );
    expect(diff.shares).toEqual([
      { field: 'topicShare', label: 'rates', percent: true, before: 0.5, after: 0.3, delta: -0.2 },
      { field: 'topicShare', label: 'housing', percent: true, before: 0.5, after: null, delta: -0.5 },
      { field: 'topicShare', label: 'energy', percent: true, before: null, after: 0.7, delta: 0.7 },
    ]);
    expect(diff.topicsAdded).toEqual(['energy']);
    expect(diff.topicsDropped).toEqual(['housing']);
  });

  it('takes sentiment from a series by its mean, or from a plain number', () => {
    const series = diffReports(
      older({
        analytics: {
          sentimentSeries: [
            { day: 1, score: 0.2 },
            { day: 2, score: 0.4 },
          ],
        },
      }),
      newer({
        analytics: {
          sentimentSeries: [
            { day: 1, score: -0.1 },
            { day: 2, score: -0.3 },
          ],
        },
      }),
      0,
    );
    expect(series.sentiment).toEqual({ before: 0.3, after: -0.2, shift: -0.5 });
    expect(series.metrics).toContainEqual({
      name: 'sentimentSeries.score',
      kind: 'mean',
      before: 0.3,
      after: -0.2,
      delta: -0.5,
    });
    const plain = diffReports(older({ analytics: { sentiment: 0.1 } }), newer({ analytics: {} }), 0);
    expect(plain.sentiment).toEqual({ before: 0.1, after: null, shift: null });
  });

  it('diffs narrative sections word by word, including a section only one side has', () => {
    const diff = diffReports(
      older({ narrative: { summary: 'Posts were mostly about rates.', outlook: 'Calm.' } }),
      newer({ narrative: { summary: 'Posts were mostly about energy.', themes: { first: 'energy' } } }),
      0,
    );
    const summary = diff.narrative.find((n) => n.section === 'summary')!;
    expect(summary.changed).toBe(true);
    expect(summary.parts.filter((p) => p.kind === 'removed').map((p) => p.text.trim())).toEqual(['rates']);
    expect(summary.parts.filter((p) => p.kind === 'added').map((p) => p.text.trim())).toEqual(['energy']);
    expect(diff.narrative.find((n) => n.section === 'outlook')!.parts).toEqual([
      { kind: 'removed', text: 'Calm.' },
    ]);
    expect(diff.narrative.find((n) => n.section === 'themes')!.parts).toEqual([
      { kind: 'added', text: '{"first":"energy"}' },
    ]);
  });
});
