/**
 * One hostile paid report cannot freeze core: a 32 MB report that repeats one word is searched through core's
 * handlers on a real SQLite library, and its snippet is made in time linear in its matches, with the matches
 * and the text scanned capped per report.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { createDeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { MAX_MATCHES, MAX_SCANNED_CHARS, snippetOf } from '../../src/core/library/snippet';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import Database from 'better-sqlite3';
import { deskDbAtVersion, tempDir } from './helpers';

const REPORT_BYTES = 32 * 1024 * 1024;

function report(id: string, summary: string): IntelReportSnapshot {
  return {
    id,
    createdAt: '2026-11-01T00:00:00.000Z',
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: null },
    analytics: {},
    narrative: { summary },
    changeSummary: null,
    previousReportId: null,
  };
}

const marked = (snippet: string) => snippet.split('\u0001').length - 1;

describe('a report that repeats one word', () => {
  it('is searched through core in well under a second at 32 MB, with a snippet that marks its matches', async () => {
    const data = tempDir('desk-hostile-report-');
    try {
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      const store = new SnapshotStore(db);
      const hostile = report('rpt_hostile_001', 'ox '.repeat(REPORT_BYTES / 3));
      const plain = report('rpt_plain_001', 'An ox crossed the river at dawn.');
      db.transaction(() =>
        store.put(
          'http://127.0.0.1:8402',
          'alice',
          [hostile, plain].map((snapshot) => ({ snapshot, raw: JSON.stringify(snapshot) })),
          null,
          '2026-11-02T00:00:00.000Z',
        ),
      )();
      db.close();

      const desk = await createDeskCore({ dataDir: data.dir });
      try {
        // The first read catches the index up; the search that follows is what a person waits for.
        expect((await desk.handlers['library.list']({})).total).toBe(2);
        const started = performance.now();
        const view = await desk.handlers['library.search']({ text: 'ox' });
        const took = performance.now() - started;
        expect(view.hits.map((hit) => hit.id).sort()).toEqual(['rpt_hostile_001', 'rpt_plain_001']);
        const hit = view.hits.find((h) => h.id === 'rpt_hostile_001')!;
        expect(hit.snippet.length).toBeLessThan(400);
        expect(marked(hit.snippet)).toBeGreaterThan(40);
        expect(hit.snippet.endsWith('…')).toBe(true);
        expect(view.hits.find((h) => h.id === 'rpt_plain_001')!.snippet).toBe(
          'An \u0001ox\u0002 crossed the river at dawn.',
        );
        // Quadratic window counting took over 10 s here, and reading 32 MB of JSON about 90 ms.
        expect(took).toBeLessThan(1_000);
      } finally {
        await desk.close();
      }

      // The snippet's text was kept for the large report only, and a search reads that, not its JSON.
      const db2 = new Database(path.join(data.dir, 'desk.db'));
      const kept = db2
        .prepare(
          `SELECT s.id, length(k.snippet_text) AS n FROM snapshot_filters k JOIN snapshots s ON s.text_id = k.text_id
           ORDER BY s.id`,
        )
        .all();
      expect(kept).toEqual([
        { id: 'rpt_hostile_001', n: MAX_SCANNED_CHARS },
        { id: 'rpt_plain_001', n: null },
      ]);
      db2.prepare(`UPDATE snapshots SET raw_json = '{}' WHERE id = 'rpt_hostile_001'`).run();
      db2.close();
      const again = await createDeskCore({ dataDir: data.dir });
      try {
        const view = await again.handlers['library.search']({ text: 'ox' });
        expect(marked(view.hits.find((h) => h.id === 'rpt_hostile_001')!.snippet)).toBeGreaterThan(40);
      } finally {
        await again.close();
      }
    } finally {
      data.remove();
    }
  }, 120_000);

  it('still makes snippets from the JSON of a large report indexed before snippet text was kept', async () => {
    const data = tempDir('desk-hostile-report-');
    try {
      const file = path.join(data.dir, 'desk.db');
      deskDbAtVersion(file, 10).close();
      const { db } = openDeskDb(file);
      const columns = db.prepare('PRAGMA table_info(snapshot_filters)').all() as { name: string }[];
      expect(columns.map((c) => c.name)).toContain('snippet_text');
      const store = new SnapshotStore(db);
      const big = report('rpt_big_001', `${'calm '.repeat(60_000)}`.replace(/^calm/, 'ox'));
      db.transaction(() =>
        store.put(
          'http://127.0.0.1:8402',
          'alice',
          [{ snapshot: big, raw: JSON.stringify(big) }],
          null,
          '2026-11-02T00:00:00.000Z',
        ),
      )();
      store.indexPending();
      // As a desk of version 10 would have left it: indexed, no snippet text.
      db.prepare('UPDATE snapshot_filters SET snippet_text = NULL').run();
      expect(store.search('ox')[0]?.snippet.startsWith('\u0001ox\u0002 calm')).toBe(true);
      db.close();
    } finally {
      data.remove();
    }
  });

  it('looks at no more than MAX_SCANNED_CHARS of text and MAX_MATCHES matches, and shows the densest window within them', () => {
    const terms = { phrases: [], prefixes: ['ox'] };
    // A match past the scanned text is not looked for: the snippet shows the first window.
    const late = `${'calm '.repeat(MAX_SCANNED_CHARS / 5 + 1)}ox ox ox`;
    expect(marked(snippetOf(late, terms))).toBe(0);
    // Past MAX_MATCHES matches, a denser window later on is not weighed.
    const denseAfter = (sparse: number) => `${'ox zzzzzzzzzz '.repeat(sparse)}${'ox '.repeat(60)}`;
    expect(denseAfter(MAX_MATCHES).length).toBeLessThan(MAX_SCANNED_CHARS);
    expect(marked(snippetOf(denseAfter(MAX_MATCHES), terms))).toBeLessThan(20);
    expect(marked(snippetOf(denseAfter(MAX_MATCHES - 100), terms))).toBeGreaterThan(40);
    // Within the caps the densest window wins, as before.
    const text = `${'a b c d e f g h i j '.repeat(20)}ox pad ox ox ox and more words follow here`;
    const snippet = snippetOf(text, terms);
    expect(marked(snippet)).toBe(4);
    expect(snippet.startsWith('…')).toBe(true);
  });
});
