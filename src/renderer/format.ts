/** Display formats: one place so every screen shows money, dates and counts the same way. */

import { appLocale } from './locale';

import { formatMoney, formatTokenAmount, moneyFieldText, parseLimitMoney } from '../shared/money-locale';
import type { UsdInput } from '../shared/money';

export { unitsText as units } from '../shared/money';

/** Money as the person's locale writes it, exact from its base units (decision 0049: "1.234,50 $" in de-DE). */
export const usd = (units: bigint | string, locale = appLocale): string => formatMoney(units, locale);

/** An exact token amount for people, in the locale's marks ("2,5" USDC in de-DE); `units` stays for machines. */
export const tokenAmount = (amount: string, decimals: number, minDecimals = 0, locale = appLocale): string =>
  formatTokenAmount(amount, decimals, locale, minDecimals);

/** A saved amount as a money field shows it, in the locale's decimal mark and read back as it was. */
export const moneyField = (units: bigint | string, locale = appLocale): string =>
  moneyFieldText(units, locale);

/** A cap or a budget typed in a money field, with the locale's decimal mark. */
export const readLimit = (typed: string, locale = appLocale): UsdInput => parseLimitMoney(typed, locale);

export function count(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 10_000) return `${Math.round(value / 1000)}k`;
  return number(value);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A whole number or a figure, grouped and with the decimal mark as the person's locale writes them. */
export function number(value: number, options: Intl.NumberFormatOptions = {}, locale = appLocale): string {
  // toLocaleString builds a formatter on every call: a Shelf of rows and its count cost a millisecond a key.
  const key = `${locale ?? ''} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** A count with its noun ("1 report", "3 reports"): the one place the window chooses singular or plural. */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${number(value)} ${pluralWord(value, one, many)}`;
}

/** The word alone, for agreement ("it is" / "they are"). */
export function pluralWord(value: number, one: string, many = `${one}s`): string {
  return value === 1 ? one : many;
}

/*
 * Dates, in the person's locale (decision 0025). Two styles, one per kind of date:
 * - a report's day (its date, a menu's date range) is a calendar day of the service, which dates reports and
 *   date ranges in UTC, so it is shown in UTC: the day a date field or `after:` in a query names;
 * - a moment (bought, saved, checked, backed up) is shown in the person's time zone, with the time as their
 *   locale writes it (12- or 24-hour).
 * ISO stays where a machine reads it: queries, exports, file names. `locale` is for tests; the window uses
 * the person's (locale.ts: the desktop app's, else the browser's).
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  // Building an Intl formatter costs far more than using one, and a table formats hundreds of dates.
  const chosen = locale ?? appLocale;
  const key = `${chosen ?? ''} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(chosen, options);
    formats.set(key, format);
  }
  return format;
}

function formatDate(
  iso: string | null | undefined,
  options: Intl.DateTimeFormatOptions,
  locale: string | undefined,
): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatter(locale, options).format(date);
}

/** A report's day ("Nov 20, 2026", "20 Nov 2026"): a calendar day, in UTC. */
export function day(iso: string | null | undefined, locale?: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeZone: 'UTC' }, locale);
}

/** Two report days as one range, in the locale's own short form ("Nov 6 – 20, 2026"). */
export function dayRange(from: string, to: string, locale?: string): string {
  const [start, end] = [new Date(from), new Date(to)];
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start > end)
    return `${day(from, locale)} – ${day(to, locale)}`;
  return formatter(locale, { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(start, end);
}

/** The local day of a moment (when a report was bought), without its time. */
export function localDay(iso: string | null | undefined, locale?: string): string {
  return formatDate(iso, { dateStyle: 'medium' }, locale);
}

/** A moment, local date and time ("Nov 20, 2026, 3:04 PM", "20 Nov 2026, 15:04"). */
export function dateTime(iso: string | null | undefined, locale?: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' }, locale);
}

/** The local time of a moment today ("3:04 PM"). */
export function time(iso: string | null | undefined, locale?: string): string {
  return formatDate(iso, { timeStyle: 'short' }, locale);
}

export function shortAddress(address: string | null | undefined): string {
  if (!address) return '—';
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** A transaction hash as 0x1234ab…cdef: enough to recognise, the whole one is copied or shown on hover. */
export function shortHash(hash: string): string {
  return hash.length > 18 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash;
}

export function networkName(network: string): string {
  switch (network) {
    case 'eip155:8453':
      return 'Base';
    case 'eip155:84532':
      return 'Base Sepolia';
    case 'eip155:31337':
      return 'Local demo chain';
    default:
      return network;
  }
}

/** Field names like `notablePosts` as headings: "Notable posts". */
export function humanize(key: string): string {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

/**
 * A compared number's name: `postsPerDay.posts` as "Posts per day" (the series' unit is dropped when the name
 * already says it), `engagement.likes` as "Engagement likes"; a series' mean says so once: "(mean)".
 */
export function metricLabel(name: string, kind: 'value' | 'mean'): string {
  const parts = name.split('.').map((part) => humanize(part).toLowerCase());
  const words = new Set(parts[0]?.split(' '));
  const kept = parts.filter((part, i) => i === 0 || !part.split(' ').every((word) => words.has(word)));
  const text = kept.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${kind === 'mean' ? ' (mean)' : ''}`;
}
