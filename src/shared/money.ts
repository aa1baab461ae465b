/**
 * Money in one place, for core, the CLI and the renderer: the token's decimals, how an amount is shown and
 * typed, and where "today" (the daily cap) and "this month" (handle budgets) start. Amounts are token base
 * units everywhere (bigint in core, decimal strings across the contract) and become text only to be shown;
 * a typed amount becomes base units as it is read. No step goes through a float (decision 0034).
 */
import { parseUnits } from 'viem';

/** USDC's decimals, the only token Intel Desk pays with. */
export const TOKEN_DECIMALS = 6;

/** The most a cap, a budget or a session limit may be: one million USD, in base units. */
export const MAX_LIMIT_UNITS = 1_000_000n * 10n ** BigInt(TOKEN_DECIMALS);

/**
 * Token base units as USDC for people, exact: every significant decimal and at least two ("999.84", "0.0125").
 * A balance shown with two decimals and compared as a float called 0.0125 USDC too little for $0.01.
 */
export function usdcText(units: bigint | string): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(TOKEN_DECIMALS + 1, '0');
  const whole = digits.slice(0, -TOKEN_DECIMALS);
  const fraction = digits.slice(-TOKEN_DECIMALS).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/**
 * The one way an amount of money is shown: dollars from token base units, exact, thousands grouped as in
 * en-US, at least two decimals and every significant one ("$0.0125", "$1.50", "$1,234.50", "$0.000001").
 */
export function formatUnitsUsd(units: bigint | string): string {
  const text = usdcText(units);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = '00'] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${fraction}`;
}

/**
 * How much of `whole` `part` is, from 0 to 1, for a meter or a bar: divided as integers, so only the ratio
 * shown becomes a float, never an amount. 0 when `whole` is 0.
 */
export function shareOf(part: bigint | string, whole: bigint | string): number {
  const total = BigInt(whole);
  if (total <= 0n) return 0;
  const parts = (BigInt(part) * 1_000_000n) / total;
  return Number(parts > 1_000_000n ? 1_000_000n : parts < 0n ? 0n : parts) / 1_000_000;
}

/** What reading a typed amount of dollars gives: its base units, or a sentence to show next to the field. */
export type UsdInput = { ok: true; units: bigint } | { ok: false; message: string };

/**
 * An amount of dollars a person typed ("0.0125", "$1.50", "1,000"), as token base units, exactly: refused
 * when negative, finer than USDC's six decimals (it would have to be rounded), or not an amount at all.
 */
export function parseUsdInput(typed: string): UsdInput {
  const trimmed = typed.trim();
  if (/^\$?-/.test(trimmed)) return { ok: false, message: 'An amount cannot be negative.' };
  const unsigned = trimmed.replace(/^\$/, '');
  // Thousands separators as en-US writes them ("1,000.50"); a comma anywhere else is not an amount.
  const text = /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(unsigned) ? unsigned.replaceAll(',', '') : unsigned;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (match === null || !/\d/.test(text)) {
    const what = trimmed === '' ? 'Nothing' : `"${trimmed}"`;
    return { ok: false, message: `${what} is not an amount of dollars; write it like 1.50 or 0.0125.` };
  }
  const fraction = match[2] ?? '';
  if (fraction.length > TOKEN_DECIMALS) {
    return {
      ok: false,
      message: `USDC has ${TOKEN_DECIMALS} decimals: give at most ${TOKEN_DECIMALS} digits after the point (${trimmed} has ${fraction.length}).`,
    };
  }
  return { ok: true, units: parseUnits(`${match[1] || '0'}.${fraction || '0'}`, TOKEN_DECIMALS) };
}

/** A cap, a budget or a session limit a person typed: as parseUsdInput, and at most a million USD. */
export function parseLimitInput(typed: string): UsdInput {
  const read = parseUsdInput(typed);
  if (read.ok && read.units > MAX_LIMIT_UNITS)
    return { ok: false, message: `The most a limit can be is ${formatUnitsUsd(MAX_LIMIT_UNITS)}.` };
  return read;
}

/**
 * A USD amount that arrives as a JSON number from outside the contract (a settings file of an earlier
 * version, an assistant's MCP call, a service's stated unit price) in token base units: the number's
 * shortest decimal form is converted, the one that was written (0.0125), never its binary expansion.
 * Null when it is no amount, negative, or finer than a base unit.
 */
export function usdNumberToUnits(usd: number): bigint | null {
  if (!Number.isFinite(usd) || usd < 0 || usd >= 1e21) return null;
  // String() writes magnitudes under 1e-6 with an exponent; toFixed gives the plain decimal of those.
  const read = parseUsdInput(usd !== 0 && usd < 1e-6 ? usd.toFixed(20).replace(/0+$/, '') : String(usd));
  return read.ok ? read.units : null;
}

/** Token base units (decimal string) as an exact decimal amount of the token, without floating point. */
export function unitsText(amount: string, decimals: number = TOKEN_DECIMALS): string {
  const padded = amount.replace(/^0+(?=\d)/, '').padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Midnight, local time, of the day `now` falls in: the daily cap counts from here. */
export function startOfLocalDay(now: number): Date {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day;
}

/** The first day, local time, of the month `now` falls in: a handle's budget counts from here. */
export function startOfLocalMonth(now: number): Date {
  const month = startOfLocalDay(now);
  month.setDate(1);
  return month;
}

/** The local day a moment falls in, as 2026-11-23: how spend is grouped by day (the daily cap's day). */
export function localDayKey(at: number): string {
  const date = new Date(at);
  const twoDigits = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}
