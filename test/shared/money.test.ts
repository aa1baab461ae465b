import { describe, expect, it } from 'vitest';
import type { QuoteView, WalletView } from '../../src/shared/rpc';
import { BalanceNote } from '../../src/renderer/screens/purchase/BalanceNote';
import {
  TOKEN_DECIMALS,
  formatUnitsUsd,
  formatUsd,
  startOfLocalDay,
  unitsText,
  unitsToUsd,
  usdToUnits,
  usdcText,
} from '../../src/shared/money';

describe('money', () => {
  it('converts USD and token base units both ways at six decimals', () => {
    expect(TOKEN_DECIMALS).toBe(6);
    expect(usdToUnits(0.01)).toBe(10_000n);
    // Binary floating point: 0.29 * 1e6 is 289999.99999999994; the nearest unit is meant.
    expect(usdToUnits(0.29)).toBe(290_000n);
    expect(usdToUnits(1_000_000)).toBe(1_000_000_000_000n);
    expect(unitsToUsd(12_500n)).toBe(0.0125);
    expect(unitsToUsd('2500000')).toBe(2.5);
  });

  it('converts the decimal a person typed, rounding half away from zero, and refuses what is no amount', () => {
    // 1.005 * 1e6 is 1004999.9999999999 in binary floating point; the typed decimal is converted instead.
    expect(usdToUnits(1.005)).toBe(1_005_000n);
    expect(usdToUnits(0.0000005)).toBe(1n);
    expect(usdToUnits(0.0000004)).toBe(0n);
    expect(usdToUnits(0.0125)).toBe(12_500n);
    expect(() => usdToUnits(Number.NaN)).toThrow(RangeError);
    expect(() => usdToUnits(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(unitsToUsd(123_456_789_012n)).toBe(123456.789012);
  });

  it('shows USD with two decimals, up to four below a dime, with thousands separators', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.05)).toBe('$0.05');
    expect(formatUsd(0.0125)).toBe('$0.0125');
    expect(formatUsd(2.5)).toBe('$2.50');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUnitsUsd(50_000n)).toBe('$0.05');
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
