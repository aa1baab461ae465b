import { describe, expect, it } from 'vitest';
import type { QuoteView, WalletView } from '../../src/shared/rpc';
import { BalanceNote } from '../../src/renderer/screens/purchase/BalanceNote';
import {
  MAX_LIMIT_UNITS,
  TOKEN_DECIMALS,
  formatUnitsUsd,
  parseLimitInput,
  parseUsdInput,
  shareOf,
  startOfLocalDay,
  unitsText,
  usdNumberToUnits,
  usdcText,
} from '../../src/shared/money';
import { baseUnits, limitUnits } from '../../src/shared/rpc';

describe('money', () => {
  it('reads a typed amount of dollars exactly, at six decimals', () => {
    expect(TOKEN_DECIMALS).toBe(6);
    expect(parseUsdInput('0.0125')).toEqual({ ok: true, units: 12_500n });
    // Binary floating point: 0.29 * 1e6 is 289999.99999999994; the typed decimal is read, not a float.
    expect(parseUsdInput('0.29')).toEqual({ ok: true, units: 290_000n });
    expect(parseUsdInput('1.005')).toEqual({ ok: true, units: 1_005_000n });
    expect(parseUsdInput(' $1,234.50 ')).toEqual({ ok: true, units: 1_234_500_000n });
    expect(parseUsdInput('.5')).toEqual({ ok: true, units: 500_000n });
    expect(parseUsdInput('0.000001')).toEqual({ ok: true, units: 1n });
    // Beyond 2^53 base units, still exact.
    expect(parseUsdInput('12345678901.234567')).toEqual({ ok: true, units: 12_345_678_901_234_567n });
  });

  it('refuses a seventh decimal, a negative amount and garbage, saying why', () => {
    const refusal = (typed: string) => {
      const read = parseUsdInput(typed);
      return read.ok ? null : read.message;
    };
    expect(refusal('0.0000001')).toBe(
      'USDC has 6 decimals: give at most 6 digits after the point (0.0000001 has 7).',
    );
    expect(refusal('-1')).toBe('An amount cannot be negative.');
    expect(refusal('$-0.01')).toBe('An amount cannot be negative.');
    expect(refusal('abc')).toBe('"abc" is not an amount of dollars; write it like 1.50 or 0.0125.');
    expect(refusal('1e3')).toMatch(/is not an amount of dollars/);
    expect(refusal('1,00')).toMatch(/is not an amount of dollars/);
    expect(refusal('')).toBe('Nothing is not an amount of dollars; write it like 1.50 or 0.0125.');
    expect(refusal('.')).toMatch(/is not an amount of dollars/);
  });

  it('holds a limit to a million USD', () => {
    expect(parseLimitInput('1000000')).toEqual({ ok: true, units: MAX_LIMIT_UNITS });
    expect(parseLimitInput('1000000.000001')).toEqual({
      ok: false,
      message: 'The most a limit can be is $1,000,000.00.',
    });
  });

  it('reads a JSON number of USD from its decimal form, and nothing finer than a base unit', () => {
    expect(usdNumberToUnits(0.0125)).toBe(12_500n);
    expect(usdNumberToUnits(0.29)).toBe(290_000n);
    expect(usdNumberToUnits(1_000_000)).toBe(1_000_000_000_000n);
    expect(usdNumberToUnits(0.000001)).toBe(1n);
    expect(usdNumberToUnits(0.0000005)).toBeNull();
    expect(usdNumberToUnits(-1)).toBeNull();
    expect(usdNumberToUnits(Number.NaN)).toBeNull();
    expect(usdNumberToUnits(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('shows base units as dollars exactly: every significant decimal, at least two, grouped', () => {
    expect(formatUnitsUsd(0n)).toBe('$0.00');
    expect(formatUnitsUsd('50000')).toBe('$0.05');
    expect(formatUnitsUsd('12500')).toBe('$0.0125');
    expect(formatUnitsUsd(2_500_000n)).toBe('$2.50');
    expect(formatUnitsUsd('1234500000')).toBe('$1,234.50');
    expect(formatUnitsUsd(1n)).toBe('$0.000001');
    expect(formatUnitsUsd(1_005_000n)).toBe('$1.005');
    // 2^53 + 1 base units: a float would have lost the last unit.
    expect(formatUnitsUsd('9007199254740993')).toBe('$9,007,199,254.740993');
    expect(formatUnitsUsd(-12_500n)).toBe('-$0.0125');
  });

  it('carries amounts across the contract as base-unit strings only', () => {
    expect(baseUnits.safeParse('12500').success).toBe(true);
    expect(baseUnits.safeParse('9007199254740993').success).toBe(true);
    for (const bad of ['0.0125', '-1', '012', '', '1e3', 12_500])
      expect(baseUnits.safeParse(bad).success, String(bad)).toBe(false);
    expect(limitUnits.safeParse(MAX_LIMIT_UNITS.toString()).success).toBe(true);
    expect(limitUnits.safeParse((MAX_LIMIT_UNITS + 1n).toString()).success).toBe(false);
  });

  it('tells a share of a cap from integers', () => {
    expect(shareOf('5000', '20000')).toBe(0.25);
    expect(shareOf('30000', '20000')).toBe(1);
    expect(shareOf('1', '0')).toBe(0);
  });

  it('writes base units as an exact token amount', () => {
    expect(unitsText('50000')).toBe('0.05');
    expect(unitsText('1000000')).toBe('1');
    expect(unitsText('000123', 2)).toBe('1.23');
    expect(unitsText('123456789012345678901234567890')).toBe('123456789012345678901234.56789');
  });

  it('starts the local day at midnight', () => {
    const day = startOfLocalDay(new Date(2026, 10, 23, 23, 59, 59, 999).getTime());
    expect([day.getFullYear(), day.getMonth(), day.getDate(), day.getHours(), day.getMinutes()]).toEqual([
      2026, 10, 23, 0, 0,
    ]);
    expect(day.getSeconds() + day.getMilliseconds()).toBe(0);
  });
});

describe('a balance for people', () => {
  it('keeps every significant decimal, and at least two', () => {
    expect(usdcText(12_500n)).toBe('0.0125');
    expect(usdcText('999840000')).toBe('999.84');
    expect(usdcText(1n)).toBe('0.000001');
    expect(usdcText(0n)).toBe('0.00');
    expect(usdcText(5_000_000n)).toBe('5.00');
  });
});

describe('the balance note before a purchase', () => {
  const quote = { amount: '10000' } as QuoteView;
  const wallet = (units: string) => ({ balanceUnits: units, balanceUsdc: usdcText(units) }) as WalletView;
  it('compares base units: 0.0125 USDC covers a $0.01 report, 0.009999 does not', () => {
    expect(BalanceNote({ quote, wallet: wallet('12500') })).toBeNull();
    expect(BalanceNote({ quote, wallet: wallet('10000') })).toBeNull();
    expect(BalanceNote({ quote, wallet: wallet('9999') })).not.toBeNull();
  });
});
