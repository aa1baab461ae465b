/**
 * Money in one place, for core, the CLI and the renderer: the token's decimals, token base units to and
 * from USD, how an amount is shown, and where "today" (the daily cap) and "this month" (handle budgets) start.
 * Amounts stay in base units (bigint) until they are shown; the conversions are decimal, never float sums.
 */
import { formatUnits, parseUnits } from 'viem';

/** USDC's decimals, the only token Intel Desk pays with. */
export const TOKEN_DECIMALS = 6;

/** Base units in one USD: the scale of a comparison typed in dollars against amounts kept in base units. */
export const UNITS_PER_USD = 10 ** TOKEN_DECIMALS;

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
 * A USD amount (a cap, a unit price) in token base units, rounded to the nearest unit (half away from zero).
 * The number's shortest decimal form is converted, the one a person typed (0.0125), not its binary expansion.
 */
export function usdToUnits(usd: number): bigint {
  if (!Number.isFinite(usd) || Math.abs(usd) >= 1e21) throw new RangeError(`${usd} is not an amount of USD`);
  // String() writes magnitudes under 1e-6 with an exponent, which a decimal parse does not take.
  const decimal = Math.abs(usd) < 1e-6 ? usd.toFixed(TOKEN_DECIMALS + 1) : String(usd);
  return parseUnits(decimal, TOKEN_DECIMALS);
}

/**
 * Token base units in USD, for display: a bigint or its decimal string exactly, or a number as SQLite sums
 * arrive (exact below 2^53 base units, nine billion USD).
 */
export function unitsToUsd(units: bigint | string | number): number {
  if (typeof units === 'number') return units / UNITS_PER_USD;
  return Number(formatUnits(BigInt(units), TOKEN_DECIMALS));
}

/** The one way an amount of USD is shown: two decimals, up to four for sub-dime prices ($0.0125). */
export function formatUsd(usd: number): string {
  const digits = usd !== 0 && Math.abs(usd) < 0.1 ? 4 : 2;
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: digits })}`;
}

/** Token base units shown in USD. */
export function formatUnitsUsd(units: bigint | string): string {
  return formatUsd(unitsToUsd(units));
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
