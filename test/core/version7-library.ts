/** A library as version 7 left it, with more reports than three steps of the indexing pass. */
import { INDEX_STEP } from '../../src/core/library/search-index';
import { deskDbAtVersion } from './helpers';

const SERVICE = 'http://a.example';
export const REPORTS = INDEX_STEP * 2 + 31;

function report(n: number): string {
  return JSON.stringify({
    id: `r${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString(),
    model: `m${n % 3}`,
    synthesisSettings: {},
    meta: { postCount: n % 7, dateRange: null },
    analytics: {
      sentimentSeries: [{ score: (n % 5) / 5 }, { score: -0.25 }, { label: 'no score' }],
      engagement: { likes: n * 3, reposts: n % 11, replies: n % 2 === 0 ? null : 4 },
      topicShare: [{ label: ` Topic${n % 4} ` }, { label: 'Shared' }, { share: 0.1 }],
    },
    narrative: { summary: `report ${n} about tidal power` },
    changeSummary: null,
    previousReportId: null,
  });
}

/** A library as version 7 left it: reports stored and their words indexed, no facts, topics or date order. */
export function version7Library(file: string): void {
  const db = deskDbAtVersion(file, 7);
  const put = db.prepare(
    `INSERT INTO snapshots (text_id, service_url, id, handle, username, created_at, model, post_count,
       raw_json, stored_at, spent_atomic) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const words = db.prepare('INSERT INTO snapshot_search (rowid, body) VALUES (?, ?)');
  db.transaction(() => {
    for (let n = 1; n <= REPORTS; n++) {
      const raw = report(n);
      const parsed = JSON.parse(raw) as { createdAt: string; model: string; meta: { postCount: number } };
      const handle = `h${n % 5}`;
      put.run(
        n,
        SERVICE,
        `r${n}`,
        handle,
        handle,
        parsed.createdAt,
        parsed.model,
        parsed.meta.postCount,
        raw,
        '2026-02-01T00:00:00.000Z',
        n * 1000,
      );
      words.run(n, `report ${n} about tidal power`);
    }
    db.prepare('UPDATE search_progress SET indexed_up_to = ? WHERE id = 1').run(REPORTS);
  })();
  db.close();
}
