/**
 * Money in the person's locale (decision 0049): shown from the exact base-unit string with the locale's
 * marks, as Intl places them, and typed with the locale's decimal mark, read exactly or refused.
 */
import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatTokenAmount,
  moneyFieldText,
  parseLimitMoney,
  parseMoneyInput,
} from '../../src/shared/money-locale';
import { formatUnitsUsd } from '../../src/shared/money';

const NNBSP = '\u202f';
const NBSP = '\u00a0';
/** Intl's own text for an amount a float holds exactly: where the locale puts the marks and the currency. */
const intl = (locale: string, value: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(value);

describe('formatMoney', () => {
  it('writes each locale as Intl would, for amounts a float holds exactly', () => {
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'hi-IN', 'ja-JP']) {
      expect(formatMoney('1234500000', locale)).toBe(intl(locale, 1234.5));
      expect(formatMoney('1234567500000', locale)).toBe(intl(locale, 1234567.5));
      expect(formatMoney('-500000', locale)).toBe(intl(locale, -0.5));
      expect(formatMoney('0', locale)).toBe(intl(locale, 0));
    }
  });

  it('uses each locale’s separators: de-DE dots, fr-FR narrow no-break spaces, hi-IN lakhs', () => {
    expect(formatMoney('1234500000', 'de-DE')).toBe(`1.234,50${NBSP}$`);
    expect(formatMoney('1234567500000', 'fr-FR')).toBe(`1${NNBSP}234${NNBSP}567,50${NBSP}$US`);
    expect(formatMoney('1234567500000', 'hi-IN')).toBe('$12,34,567.50');
    expect(formatMoney('1234500000', 'ja-JP')).toBe('$1,234.50');
    expect(formatMoney('1234500000', 'en-US')).toBe('$1,234.50');
  });

  it('keeps every significant decimal of the token, past what a float holds', () => {
    expect(formatMoney('12500', 'de-DE')).toBe(`0,0125${NBSP}$`);
    expect(formatMoney('1', 'fr-FR')).toBe(`0,000001${NBSP}$US`);
    expect(formatMoney('-1', 'hi-IN')).toBe('-$0.000001');
    // 2^53 + 1 base units: a float would round the last digit away.
    expect(formatMoney('9007199254740993', 'de-DE')).toBe(`9.007.199.254,740993${NBSP}$`);
    expect(formatMoney('123456789012345678', 'hi-IN')).toBe('$1,23,45,67,89,012.345678');
  });

  it('is the en-US text the CLI prints', () => {
    for (const units of ['0', '1', '12500', '1500000', '1234500000', '-1500000', '999999999999'])
      expect(formatMoney(units, 'en-US')).toBe(formatUnitsUsd(units));
  });
});

describe('parseMoneyInput', () => {
  const units = (typed: string, locale: string) => {
    const read = parseMoneyInput(typed, locale);
    return read.ok ? read.units.toString() : read.message;
  };

  it('reads the locale’s decimal mark and grouping exactly', () => {
    expect(units('2,50', 'de-DE')).toBe('2500000');
    expect(units('1.234,5', 'de-DE')).toBe('1234500000');
    expect(units('1.234.567,000001', 'de-DE')).toBe('1234567000001');
    expect(units('2,50 $', 'de-DE')).toBe('2500000');
    expect(units(`1${NNBSP}234,5`, 'fr-FR')).toBe('1234500000');
    expect(units('1 234,5', 'fr-FR')).toBe('1234500000');
    expect(units(`1${NBSP}234,50 $US`, 'fr-FR')).toBe('1234500000');
    expect(units('0,0125', 'fr-FR')).toBe('12500');
    expect(units('12,34,567.5', 'hi-IN')).toBe('1234567500000');
    expect(units('$1,234.50', 'ja-JP')).toBe('1234500000');
    expect(units('1,000', 'en-US')).toBe('1000000000');
    expect(units('$0.0125', 'en-US')).toBe('12500');
    expect(units('1234,5', 'de-DE')).toBe('1234500000');
  });

  it('refuses a mark the locale would not put there, saying how the locale writes it', () => {
    expect(units('2.50', 'de-DE')).toBe(
      '"2.50" is not an amount as de-DE writes it: the decimal mark is "," and "." groups thousands (1.234,50).',
    );
    expect(units('2,50', 'en-US')).toBe(
      '"2,50" is not an amount as en-US writes it: the decimal mark is "." and "," groups thousands (1,234.50).',
    );
    expect(units('2.50', 'fr-FR')).toBe(
      `"2.50" is not an amount as fr-FR writes it: the decimal mark is "," and a space groups thousands (1${NNBSP}234,50).`,
    );
    // Pasted from an en-US page into a de-DE window: neither reading is guessed.
    expect(units('1,234.50', 'de-DE')).toMatch(/^"1,234.50" is not an amount/);
    expect(units('1,234,567.5', 'hi-IN')).toMatch(/is not an amount as hi-IN writes it/);
    expect(units('12.34', 'de-DE')).toMatch(/is not an amount as de-DE writes it/);
  });

  it('refuses what is not an amount, a negative one and a seventh decimal', () => {
    expect(units('zwei', 'de-DE')).toBe(
      '"zwei" is not an amount of dollars; write it like 1.234,50 or 0,0125.',
    );
    expect(units('', 'de-DE')).toBe('Nothing is not an amount of dollars; write it like 1.234,50 or 0,0125.');
    expect(units('1,2,3', 'de-DE')).toMatch(/^"1,2,3" is not an amount of dollars/);
    expect(units('-2,50', 'de-DE')).toBe('An amount cannot be negative.');
    expect(units('−1', 'fr-FR')).toBe('An amount cannot be negative.');
    expect(units('0,0000001', 'de-DE')).toBe(
      'USDC has 6 decimals: give at most 6 digits after the point (0,0000001 has 7).',
    );
  });

  it('bounds a limit at a million dollars, written in the locale', () => {
    expect(parseLimitMoney('1.000.000,000001', 'de-DE')).toEqual({
      ok: false,
      message: `The most a limit can be is 1.000.000,00${NBSP}$.`,
    });
    expect(parseLimitMoney('1.000.000', 'de-DE')).toEqual({ ok: true, units: 1_000_000_000_000n });
  });

  it('reads back what a field shows', () => {
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'hi-IN', 'ja-JP'])
      for (const value of ['2500000', '12500', '1234567000001', '0'])
        expect(units(moneyFieldText(value, locale), locale)).toBe(value);
    expect(moneyFieldText('2500000', 'de-DE')).toBe('2,5');
  });
});

describe('formatTokenAmount', () => {
  it('writes a token amount exactly in the locale’s marks, with the token’s own decimals', () => {
    expect(formatTokenAmount('2500000', 6, 'de-DE')).toBe('2,5');
    expect(formatTokenAmount('1234567000001', 6, 'fr-FR')).toBe(`1${NNBSP}234${NNBSP}567,000001`);
    expect(formatTokenAmount('123456700', 2, 'hi-IN')).toBe('12,34,567');
    expect(formatTokenAmount('1000000000000000001', 18, 'en-US')).toBe('1.000000000000000001');
    // A balance shows at least two decimals, as the CLI's does.
    expect(formatTokenAmount('1000000000', 6, 'de-DE', 2)).toBe('1.000,00');
    expect(formatTokenAmount('999987500', 6, 'en-US', 2)).toBe('999.9875');
  });
});
