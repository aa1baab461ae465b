/** The window's date styles (decision 0025): a report's day in UTC, a moment in local time, both in the locale. */
import { describe, expect, it } from 'vitest';
import { dateTime, day, localDay, time } from '../../src/renderer/format';

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

  it('keeps what is not a date as it came, and shows a dash for nothing', () => {
    expect(day('not a date')).toBe('not a date');
    expect(dateTime(null)).toBe('—');
    expect(localDay(undefined)).toBe('—');
  });
});
