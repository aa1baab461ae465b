/**
 * One hostile paid report cannot freeze core: a 32 MB report that repeats one word is searched through core's
 * handlers on a real SQLite library, and its snippet is made in time linear in its matches, with the matches
 * and the text scanned capped per report.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { createDeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/cache/snapshots';
import { MAX_MATCHES, MAX_SCANNED_CHARS, snippetOf } from '../../src/core/cache/snippet';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { tempDir } from './helpers';

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
        // Quadratic window counting took over 10 s here; reading and parsing 32 MB is what remains.
        expect(took).toBeLessThan(1_000);
      } finally {
        await desk.close();
      }
    } finally {
      data.remove();
    }
  }, 120_000);

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
