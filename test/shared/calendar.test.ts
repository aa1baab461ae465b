/** What is wrong with a day that has the YYYY-MM-DD shape but is not on the calendar. */
import { describe, expect, it } from 'vitest';
import { whyNotADay } from '../../src/shared/calendar';

describe('whyNotADay', () => {
  it('says nothing against real days, leap days included', () => {
    for (const day of ['2026-01-01', '2026-11-30', '2028-02-29', '2000-02-29', '2026-12-31'])
      expect(whyNotADay(day), day).toBeNull();
  });

  it('names the month or the day that does not exist', () => {
    expect(whyNotADay('2026-13-01')).toBe('there is no month 13 (months run from 01 to 12)');
    expect(whyNotADay('2026-00-10')).toBe('there is no month 00 (months run from 01 to 12)');
    expect(whyNotADay('2026-11-31')).toBe('there is no 31 November (November has 30 days)');
    expect(whyNotADay('2026-02-30')).toBe('there is no 30 February (February 2026 has 28 days)');
    expect(whyNotADay('2026-02-29')).toBe('2026 is not a leap year (February 2026 has 28 days)');
    expect(whyNotADay('1900-02-29')).toBe('1900 is not a leap year (February 1900 has 28 days)');
    expect(whyNotADay('2026-10-00')).toBe('there is no day 00 (days start at 01)');
  });

  it('leaves text of another shape to the caller', () => {
    for (const text of ['yesterday', '01/10/2026', '2026-1-01', '']) expect(whyNotADay(text)).toBeNull();
  });
});
