/** The person's locale: the desktop app's from the page's ?locale=, else the browser's; numbers follow it. */
import { describe, expect, it } from 'vitest';
import { readLocale } from '../../src/renderer/locale';
import { day, number } from '../../src/renderer/format';

describe('readLocale', () => {
  it('takes the app’s locale from the page address, canonical, over the browser’s', () => {
    expect(readLocale('?locale=de-DE', 'en-US')).toBe('de-DE');
    expect(readLocale('?locale=pt-br', 'en-US')).toBe('pt-BR');
  });

  it('keeps the browser’s when the address names none, or something that is not a locale', () => {
    expect(readLocale('', 'fr-FR')).toBe('fr-FR');
    expect(readLocale('?locale=not_a_locale!', 'fr-FR')).toBe('fr-FR');
    expect(readLocale('?locale=', undefined)).toBeUndefined();
  });
});

describe('numbers and dates in a locale', () => {
  it('group and mark decimals as the locale writes them', () => {
    expect(number(1234567.5, {}, 'de-DE')).toBe('1.234.567,5');
    expect(number(1234567.5, {}, 'en-US')).toBe('1,234,567.5');
    expect(number(1234567.5, {}, 'fr-FR')).toBe(new Intl.NumberFormat('fr-FR').format(1234567.5));
    expect(day('2026-11-20T23:30:00Z', 'de-DE')).toBe('20.11.2026');
  });
});
