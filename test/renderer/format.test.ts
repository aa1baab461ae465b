/** The window's date styles (decision 0025): a report's day in UTC, a moment in local time, both in the locale. */
import { describe, expect, it } from 'vitest';
import { dateTime, day, dayRange, localDay, metricLabel, time } from '../../src/renderer/format';

const LATE = '2026-11-20T23:30:00.000Z';

describe('dates in the person locale', () => {
  it('writes a report day as the locale does, on its UTC calendar day', () => {
    expect(day(LATE, 'en-US')).toBe('Nov 20, 2026');
    expect(day(LATE, 'en-GB')).toBe('20 Nov 2026');
    expect(day(LATE, 'de-DE')).toBe('20.11.2026');
    // A date field's value is a calendar day too, and stays that day in every time zone.
    expect(day('2026-01-05', 'en-US')).toBe('Jan 5, 2026');
  });

  it('writes a moment with the time as the locale does, 12- or 24-hour', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const expected = (locale: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
        new Date(LATE),
      );
    expect(dateTime(LATE, 'en-US')).toBe(expected('en-US'));
    expect(dateTime(LATE, 'en-GB')).toBe(expected('en-GB'));
    expect(dateTime(LATE, 'en-US')).toMatch(/[AP]M$/);
    expect(dateTime(LATE, 'en-GB')).toMatch(/\d\d:\d\d$/);
    expect(dateTime(LATE, 'en-US')).not.toMatch(/UTC|T\d\d/);
    expect(time(LATE, 'en-GB')).toMatch(/^\d\d:\d\d$/);
    expect(localDay(LATE, 'en-GB')).toMatch(/^\d{1,2} Nov 2026$/);
  });

  it('writes a range of report days in the locale short form', () => {
    // ICU puts thin spaces around the dash.
    const plain = (text: string) => text.replace(/\s/g, ' ');
    expect(plain(dayRange('2026-11-06T00:00:00Z', '2026-11-20T23:00:00Z', 'en-US'))).toBe('Nov 6 – 20, 2026');
    expect(plain(dayRange('2026-10-26', '2026-11-09', 'en-GB'))).toBe('26 Oct – 9 Nov 2026');
  });

  it('keeps what is not a date as it came, and shows a dash for nothing', () => {
    expect(day('not a date')).toBe('not a date');
    expect(dateTime(null)).toBe('—');
    expect(localDay(undefined)).toBe('—');
  });
});

describe('metricLabel', () => {
  it('names a series once, without repeating its unit', () => {
    expect(metricLabel('postsPerDay.posts', 'mean')).toBe('Posts per day (mean)');
    expect(metricLabel('engagement.likes', 'value')).toBe('Engagement likes');
    expect(metricLabel('postCount', 'value')).toBe('Post count');
    expect(metricLabel('sentiment.score', 'mean')).toBe('Sentiment score (mean)');
  });
});
