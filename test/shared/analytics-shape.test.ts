/**
 * The one reading of analytics that the Report screen's charts, the exports and the report diff share: each
 * shape the spec leaves open, read for what it is, without a renderer.
 */
import { describe, expect, it } from 'vitest';
import {
  analyticsFigure,
  analyticsFigures,
  figureText,
  readableDate,
  seriesDate,
} from '../../src/shared/analytics-shape';

describe('analyticsFigures', () => {
  it('reads a number as a value and a record of numbers as bars, in the order given', () => {
    expect(analyticsFigures({ reach: 5, engagement: { likes: 100, replies: 7 } })).toEqual([
      { kind: 'value', name: 'reach', value: 5 },
      {
        kind: 'bars',
        name: 'engagement',
        origin: 'record',
        percent: false,
        points: [
          { label: 'likes', value: 100 },
          { label: 'replies', value: 7 },
        ],
      },
    ]);
  });

  it('reads fractions of one as percentages, whole numbers in 0..1 not', () => {
    const topics = analyticsFigure('topicShare', [
      { label: 'rates', value: 0.61 },
      { label: 'energy', value: 0.39 },
    ]);
    expect(topics).toMatchObject({ kind: 'bars', origin: 'array', percent: true });
    expect(analyticsFigure('flags', { a: 0, b: 1 })).toMatchObject({ kind: 'bars', percent: false });
    expect(figureText(0.61, true)).toBe('61%');
    expect(figureText(0.275, true)).toBe('27.5%');
    expect(figureText(1234.5, false)).toBe('1,234.5');
  });

  it('reads rows with an ISO date as a series over time, oldest first, whatever the row order', () => {
    const figure = analyticsFigure('postsPerDay', [
      { date: '2026-11-07', posts: 4 },
      { date: '2026-11-06', posts: 9 },
    ]);
    expect(figure).toEqual({
      kind: 'series',
      name: 'postsPerDay',
      xLabel: 'date',
      yLabel: 'posts',
      dates: true,
      points: [
        { x: Date.UTC(2026, 10, 6), y: 9 },
        { x: Date.UTC(2026, 10, 7), y: 4 },
      ],
    });
    expect(seriesDate(Date.UTC(2026, 10, 6))).toBe('6 Nov 2026');
    expect(seriesDate(Date.UTC(2026, 10, 6, 17, 51))).toBe('6 Nov 2026, 17:51 UTC');
  });

  it('reads rows of numbers as a numbered series and keeps anything else as it is', () => {
    expect(
      analyticsFigure('sentimentSeries', [
        { day: 1, score: 0.2 },
        { day: 2, score: -0.4 },
      ]),
    ).toEqual({
      kind: 'series',
      name: 'sentimentSeries',
      xLabel: 'day',
      yLabel: 'score',
      dates: false,
      points: [
        { x: 1, y: 0.2 },
        { x: 2, y: -0.4 },
      ],
    });
    expect(analyticsFigure('topTopics', ['batteries', 'supply'])).toEqual({
      kind: 'other',
      name: 'topTopics',
      value: ['batteries', 'supply'],
    });
    // A date that is only part of a string is a label, not a date.
    expect(analyticsFigure('events', [{ when: 'on 2026-11-06', n: 3 }])).toMatchObject({ kind: 'bars' });
  });

  it('writes dates so every locale reads them the same', () => {
    expect(readableDate('2026-11-23T17:51:09.000Z')).toBe('23 Nov 2026, 17:51 UTC');
    expect(readableDate('not 2026-11-23')).toBe('not 2026-11-23');
    // The service's dates are only strings: one that is not a date is shown as it is, never thrown on.
  });
});
