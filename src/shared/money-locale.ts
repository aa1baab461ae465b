/**
 * Money in the person's locale (decision 0049): shown with the locale's grouping, decimal mark and currency
 * placement, and typed with its decimal mark. The text is built from the exact base-unit string: Intl only
 * formats the whole dollars, as a bigint, and names the locale's marks; the decimals are the token's own
 * digits, so no amount goes through a float (decision 0034). Amounts stay in USD whatever the locale.
 */
import { MAX_LIMIT_UNITS, TOKEN_DECIMALS, unitsText, usdcText, type UsdInput } from './money';

interface LocaleMarks {
  whole: Intl.NumberFormat;
  plain: Intl.NumberFormat;
  always: Intl.NumberFormat;
  decimal: string;
  group: string;
  /** The locale's digits 0 to 9 (Latin in most locales, Arabic-Indic in ar-EG). */
  digits: readonly string[];
}

const marksByLocale = new Map<string, LocaleMarks>();

function marksOf(locale: string | undefined): LocaleMarks {
  const key = locale ?? '';
  const known = marksByLocale.get(key);
  if (known) return known;
  const currency = { style: 'currency', currency: 'USD', currencyDisplay: 'symbol' } as const;
  const whole = new Intl.NumberFormat(locale, {
    ...currency,
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const plain = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const always = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: 'always' });
  const sample = new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }).formatToParts(1234567.5);
  const part = (type: string) => sample.find((p) => p.type === type)?.value ?? '';
  const digitFormat = new Intl.NumberFormat(locale, { useGrouping: false });
  const digits = Array.from({ length: 10 }, (_, n) => digitFormat.format(n));
  const marks = { whole, plain, always, decimal: part('decimal'), group: part('group'), digits };
  marksByLocale.set(key, marks);
  return marks;
}

/**
 * Token base units as dollars in `locale`, exact: every significant decimal and at least two, grouped and
 * placed as the locale writes money ("$1,234.50", "1.234,50 $", "1 234,50 $US", "$12,34,567.50").
 */
export function formatMoney(units: bigint | string, locale: string | undefined): string {
  const text = usdcText(units);
  const negative = text.startsWith('-');
  const [wholeText = '0', fraction = '00'] = (negative ? text.slice(1) : text).split('.');
  const marks = marksOf(locale);
  const whole = BigInt(wholeText);
  // A bigint has no -0: a negative amount under a dollar takes its sign's place from -1 and keeps a zero.
  const signed = negative ? (whole === 0n ? -1n : -whole) : whole;
  const parts = marks.whole.formatToParts(signed);
  const last = parts.map((p) => p.type).lastIndexOf('integer');
  const decimals = [...fraction].map((d) => marks.digits[Number(d)] ?? d).join('');
  return parts
    .map((p, index) => {
      const value = whole === 0n && p.type === 'integer' ? (marks.digits[0] ?? '0') : p.value;
      return index === last ? `${value}${marks.decimal}${decimals}` : value;
    })
    .join('');
}

/** The locale's way of writing 1234.50 and 0.0125, for a field's hint and a refusal's example. */
export function moneyExample(locale: string | undefined): { grouped: string; small: string } {
  const marks = marksOf(locale);
  const local = (text: string) =>
    [...text].map((c) => (/\d/.test(c) ? (marks.digits[Number(c)] ?? c) : c)).join('');
  return {
    grouped: `${marks.always.format(1234n)}${marks.decimal}${local('50')}`,
    small: `${local('0')}${marks.decimal}${local('0125')}`,
  };
}

// Spaces a person types for a locale that groups with one (fr-FR's narrow no-break space, a no-break space),
// and the apostrophes de-CH groups with: each stands for the others.
const SPACES = /[\s\u00a0\u202f]/g;
const APOSTROPHES = /['\u2019]/g;
const sameMark = (text: string) => text.replace(SPACES, ' ').replace(APOSTROPHES, "'");
// What may surround the number: the currency as any locale writes USD, and spaces.
const CURRENCY = /^(?:US\$|\$US|\$|USD)|(?:US\$|\$US|\$|USD)$/gi;

/**
 * An amount of dollars a person typed in `locale` ("2,50" and "1.234,5" in de-DE, "1 234,50" in fr-FR,
 * "12,34,567.5" in hi-IN), as token base units, exactly. Refused with a sentence: a negative amount, a
 * seventh decimal, anything that is not an amount, and a mark the locale would not put there ("2.50" in
 * de-DE, where "." groups thousands: 2.50 and 250 are both readings, so neither is guessed).
 */
export function parseMoneyInput(typed: string, locale: string | undefined): UsdInput {
  const marks = marksOf(locale);
  const trimmed = typed.trim();
  const example = moneyExample(locale);
  const notAmount = (what: string): UsdInput => ({
    ok: false,
    message: `${what} is not an amount of dollars; write it like ${example.grouped} or ${example.small}.`,
  });
  let text = sameMark(trimmed).replace(CURRENCY, '').trim();
  if (/^[-\u2212]/.test(text)) return { ok: false, message: 'An amount cannot be negative.' };
  text = [...text].map((c) => String(marks.digits.indexOf(c) >= 0 ? marks.digits.indexOf(c) : c)).join('');
  if (trimmed === '') return notAmount('Nothing');
  const decimal = sameMark(marks.decimal);
  const group = sameMark(marks.group);
  const [wholeText = '', fraction = '', ...more] = text.split(decimal);
  if (more.length > 0 || !/^\d*$/.test(fraction) || !/\d/.test(text)) {
    if (more.length === 0 && /^\d+[.,]\d+$/.test(text)) return wrongMark(trimmed, locale, example.grouped);
    return notAmount(`"${trimmed}"`);
  }
  const digits = wholeText.split(group).join('');
  if (!/^\d*$/.test(digits)) {
    return /^\d+[.,]\d+$/.test(wholeText)
      ? wrongMark(trimmed, locale, example.grouped)
      : notAmount(`"${trimmed}"`);
  }
  if (digits !== wholeText && !groupedAsLocale(wholeText, digits, marks)) {
    return wrongMark(trimmed, locale, example.grouped);
  }
  if (fraction.length > TOKEN_DECIMALS) {
    return {
      ok: false,
      message: `USDC has ${TOKEN_DECIMALS} decimals: give at most ${TOKEN_DECIMALS} digits after the point (${trimmed} has ${fraction.length}).`,
    };
  }
  const base = 10n ** BigInt(TOKEN_DECIMALS);
  const units = BigInt(digits || '0') * base + BigInt((fraction || '0').padEnd(TOKEN_DECIMALS, '0'));
  return { ok: true, units };
}

/** Groups where the locale puts them (in threes, or lakh and crore in hi-IN), with or without its minimum. */
function groupedAsLocale(typed: string, digits: string, marks: LocaleMarks): boolean {
  if (digits === '' || typed.startsWith(sameMark(marks.group))) return false;
  const value = BigInt(digits);
  const latin = (text: string) =>
    sameMark([...text].map((c) => (marks.digits.includes(c) ? String(marks.digits.indexOf(c)) : c)).join(''));
  return typed === latin(marks.plain.format(value)) || typed === latin(marks.always.format(value));
}

function wrongMark(trimmed: string, locale: string | undefined, grouped: string): UsdInput {
  const marks = marksOf(locale);
  const name = (mark: string) => (/\s/.test(sameMark(mark)) ? 'a space' : `"${mark}"`);
  return {
    ok: false,
    message: `"${trimmed}" is not an amount as ${locale ?? 'this language'} writes it: the decimal mark is "${marks.decimal}" and ${name(marks.group)} groups thousands (${grouped}).`,
  };
}

/** A cap, a budget or a session limit typed in `locale`: as parseMoneyInput, and at most a million USD. */
export function parseLimitMoney(typed: string, locale: string | undefined): UsdInput {
  const read = parseMoneyInput(typed, locale);
  if (read.ok && read.units > MAX_LIMIT_UNITS)
    return { ok: false, message: `The most a limit can be is ${formatMoney(MAX_LIMIT_UNITS, locale)}.` };
  return read;
}

/** Token base units as a locale's plain decimal for a field's value ("2,5" in de-DE), ungrouped and exact. */
export function moneyFieldText(units: bigint | string, locale: string | undefined): string {
  const marks = marksOf(locale);
  const [whole = '0', fraction] = usdcText(units).replace(/0+$/, '').replace(/\.$/, '').split('.');
  const local = (text: string) =>
    [...text].map((c) => (/\d/.test(c) ? (marks.digits[Number(c)] ?? c) : c)).join('');
  return fraction ? `${local(whole)}${marks.decimal}${local(fraction)}` : local(whole);
}

/**
 * An exact amount of a token from its base units, in the locale's digits, grouping and decimal mark, every
 * significant decimal ("2,5" USDC in de-DE beside "2,50 $"), at least `minDecimals` (a balance shows two):
 * the token's own decimals, not USDC's.
 */
export function formatTokenAmount(
  amount: string,
  decimals: number,
  locale: string | undefined,
  minDecimals = 0,
): string {
  const marks = marksOf(locale);
  const [whole = '0', exact = ''] = unitsText(amount, decimals).split('.');
  const fraction = exact.padEnd(Math.min(minDecimals, decimals), '0');
  const local = (text: string) => [...text].map((c) => marks.digits[Number(c)] ?? c).join('');
  const grouped = marks.plain.format(BigInt(whole));
  return fraction ? `${grouped}${marks.decimal}${local(fraction)}` : grouped;
}
