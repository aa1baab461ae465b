/** The PDF export: a real PDF whose pages carry the report's text, with non-WinAnsi and hidden characters made safe. */
import { describe, expect, it } from 'vitest';
import { snapshotPdf, winAnsi } from '../../src/core/export-pdf';
import { snapshotMarkdown } from '../../src/core/export';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { drawnText } from './pdf-text';

const snapshot: IntelReportSnapshot = {
  id: 'rpt_pdf_001',
  createdAt: '2026-11-20T10:00:00.000Z',
  model: 'test-model',
  synthesisSettings: {},
  meta: { postCount: 42, dateRange: { from: '2026-11-01', to: '2026-11-20' } },
  analytics: { sentiment: { positive: 0.61, negative: 0.12 }, topTopics: ['batteries', 'supply'] },
  narrative: {
    summary: 'Battery supply worries dominate the thread.',
    keyThemes: 'Café prices \u202Eevil\u202C and 漢字 in one line.',
  },
  changeSummary: { text: 'More posts about suppliers than last week.' },
  previousReportId: 'rpt_pdf_000',
};

describe('PDF export', () => {
  it('writes a PDF whose pages carry the sections, change summary and analytics', async () => {
    const pdf = await snapshotPdf('SomeHandle', snapshot);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const text = drawnText(pdf);
    for (const expected of [
      'Summary',
      'Battery supply worries',
      'Key Themes',
      'Change since the previous report',
      'More posts about suppliers',
      'Analytics',
      'Positive',
      '61%',
      '12%',
      'batteries',
      '20 Nov 2026, 10:00 UTC',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('Café prices evil and ?? in one line.');
    expect(text).not.toContain('\u202E');
  });

  it('cuts a huge value and says where the rest is', async () => {
    const huge = { ...snapshot, narrative: { summary: 'x'.repeat(1_000_000) } };
    const pdf = await snapshotPdf('SomeHandle', huge);
    expect(drawnText(pdf)).toContain('980000 more characters; see the JSON export');
  });

  it('exports a value nested far too deep as a note, in PDF and Markdown', async () => {
    let nested: unknown = 'bottom';
    for (let depth = 0; depth < 50_000; depth++) nested = { level: nested };
    const deep = { ...snapshot, changeSummary: { nested } };
    expect(drawnText(await snapshotPdf('SomeHandle', deep))).toContain('see the JSON export');
    expect(snapshotMarkdown('SomeHandle', deep)).toContain(
      'nested deeper than 40 levels; see the JSON export',
    );
  });

  it('keeps WinAnsi text and typography, drops bidi and control characters', () => {
    expect(winAnsi('“Quoted” – fine… Ünïcödé')).toBe('“Quoted” – fine… Ünïcödé');
    expect(winAnsi('a\u0000b\u200Bc\u2066d\u0007e')).toBe('abcde');
    expect(winAnsi('line one\nline two')).toBe('line one\nline two');
    expect(winAnsi('😀 Ωmega')).toBe('? ?mega');
  });
});
