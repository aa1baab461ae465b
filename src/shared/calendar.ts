/**
 * Why a day written as YYYY-MM-DD is not on the calendar: "there is no month 13", "November has 30 days".
 * A message that only repeats the expected format leaves the person to find what is wrong with a value that
 * already has that format.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Null for a real day; otherwise what is wrong with it, or null too when it is not YYYY-MM-DD at all. */
export function whyNotADay(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12) return `there is no month ${match[2]} (months run from 01 to 12)`;
  const last = daysIn(year, month);
  if (day >= 1 && day <= last) return null;
  if (day === 0) return 'there is no day 00 (days start at 01)';
  const name = MONTHS[month - 1] ?? '';
  if (month === 2 && day === 29) return `${year} is not a leap year (February ${year} has 28 days)`;
  return `there is no ${day} ${name} (${name}${month === 2 ? ` ${year}` : ''} has ${last} days)`;
}
