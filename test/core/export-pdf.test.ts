/** The PDF export: a real PDF whose pages carry the report's text, with non-WinAnsi and hidden characters made safe. */
import { describe, expect, it } from 'vitest';
import { barScale, snapshotPdf, winAnsi } from '../../src/core/library/export-pdf';
import { snapshotMarkdown } from '../../src/core/library/export';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { drawnRects, drawnText } from './pdf-text';

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

const subject = { username: 'SomeHandle', displayName: null };

/** Fill colours of the chart: the track behind every bar, and the bars above and below zero. */
const TRACK = '0.902 0.914 0.937';
const RED = '0.702 0.149 0.118';

describe('PDF export', () => {
  it('writes a PDF whose pages carry the sections, change summary and analytics', async () => {
    const pdf = await snapshotPdf(subject, snapshot);
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
    const pdf = await snapshotPdf(subject, huge);
    expect(drawnText(pdf)).toContain('980000 more characters; see the JSON export');
  });

  it('exports a value nested far too deep as a note, in PDF and Markdown', async () => {
    let nested: unknown = 'bottom';
    for (let depth = 0; depth < 50_000; depth++) nested = { level: nested };
    const deep = { ...snapshot, changeSummary: { nested } };
    expect(drawnText(await snapshotPdf(subject, deep))).toContain('see the JSON export');
    expect(snapshotMarkdown(subject, deep)).toContain('nested deeper than 40 levels; see the JSON export');
  });

  it('keeps WinAnsi text and typography, drops bidi and control characters', () => {
    expect(winAnsi('“Quoted” – fine… Ünïcödé')).toBe('“Quoted” – fine… Ünïcödé');
    expect(winAnsi('a\u0000b\u200Bc\u2066d\u0007e')).toBe('abcde');
    expect(winAnsi('line one\nline two')).toBe('line one\nline two');
    expect(winAnsi('😀 Ωmega')).toBe('? ?mega');
  });

  it('draws sentiment from a zero line: a negative day is a bar going left, not an empty track', async () => {
    const days = {
      ...snapshot,
      analytics: {
        sentimentByDay: [
          { date: '2026-11-01', score: -0.5 },
          { date: '2026-11-02', score: 0.25 },
          { date: '2026-11-03', score: 0 },
        ],
      },
    };
    const rects = drawnRects(await snapshotPdf(subject, days));
    const bars = rects.filter((r) => r.fill !== TRACK);
    const track = rects.find((r) => r.fill === TRACK)!;
    const zero = track.x + (0.5 / 0.75) * track.width;
    expect(bars).toHaveLength(2);
    const [negative, positive] = bars;
    expect(negative!.fill).toBe(RED);
    expect(negative!.x).toBeCloseTo(track.x, 3);
    expect(negative!.x + negative!.width).toBeCloseTo(zero, 3);
    expect(positive!.fill).not.toBe(RED);
    expect(positive!.x).toBeCloseTo(zero, 3);
    expect(positive!.width).toBeCloseTo(negative!.width / 2, 3);
  });

  it('scales bars from the lowest to the highest value, zero at the left when none is negative', () => {
    expect(barScale([1, 2, 4], 200)).toEqual({ zero: 0, perUnit: 50 });
    expect(barScale([-1, 3], 200)).toEqual({ zero: 50, perUnit: 50 });
    expect(barScale([-2, -1], 200)).toEqual({ zero: 200, perUnit: 100 });
    expect(barScale([0, 0], 200)).toEqual({ zero: 0, perUnit: 0 });
  });

  it('titles the report with the display name and the handle as the service spells it', async () => {
    const named = { username: 'AdaQuispe51', displayName: 'Ada Quispe' };
    const title = 'Ada Quispe (@AdaQuispe51): report of 20 Nov 2026, 10:00 UTC';
    expect(drawnText(await snapshotPdf(named, snapshot))).toContain(title);
    expect(snapshotMarkdown(named, snapshot).split('\n')[0]).toBe(`# ${title}`);
    expect(snapshotMarkdown(subject, snapshot).split('\n')[0]).toBe(
      '# @SomeHandle: report of 20 Nov 2026, 10:00 UTC',
    );
  });

  it('marks a negative value in the Markdown bar instead of leaving it blank', () => {
    const days = {
      ...snapshot,
      analytics: {
        sentimentByDay: [
          { date: '2026-11-01', score: -0.5 },
          { date: '2026-11-02', score: 0.25 },
        ],
      },
    };
    const rows = snapshotMarkdown(subject, days)
      .split('\n')
      .filter((line) => /^\| 1 Nov|^\| 2 Nov/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/\| −█+ \|$/);
    expect(rows[1]).toMatch(/\| █+▏?▎?▍?▌?▋?▊?▉? \|$/);
  });
});
