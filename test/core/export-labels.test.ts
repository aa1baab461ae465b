/** A person's tags and note travel with the report into Markdown and PDF exports. */
import { describe, expect, it } from 'vitest';
import { snapshotPdf } from '../../src/core/library/export-pdf';
import { snapshotMarkdown } from '../../src/core/library/export';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { drawnText } from './pdf-text';

const snapshot: IntelReportSnapshot = {
  id: 'rpt_labels_001',
  createdAt: '2026-11-20T10:00:00.000Z',
  model: 'test-model',
  synthesisSettings: {},
  meta: { postCount: 42 },
  analytics: {},
  narrative: { summary: 'Grid battery prices fell.' },
  changeSummary: null,
};
const labels = { tags: ['energy', 'follow-up'], note: 'Ask the analyst about Kraków.\nSecond line.' };

describe('exports with tags and a note', () => {
  it('lists the tags and writes the note as its own section', async () => {
    const md = snapshotMarkdown({ username: 'ada', displayName: null }, snapshot, null, labels);
    expect(md).toContain('- Tags: energy, follow-up\n');
    expect(md).toContain('## My notes\n\nAsk the analyst about Kraków.');
    expect(
      snapshotMarkdown({ username: 'ada', displayName: null }, snapshot, null, { tags: [], note: '' }),
    ).not.toMatch(/Tags:|My notes/);
    const text = drawnText(await snapshotPdf({ username: 'ada', displayName: null }, snapshot, null, labels));
    expect(text).toContain('Tags: energy, follow-up');
    expect(text).toContain('My notes');
    expect(text).toContain('Ask the analyst about Krak');
  });
});
