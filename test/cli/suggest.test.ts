/** The nearest known word to a typo: a slip or two, a swap, a prefix; nothing for a word that is not close. */
import { describe, expect, it } from 'vitest';
import { nearest } from '../../src/cli/suggest';

const COMMANDS = ['list', 'menu', 'quote', 'buy', 'library', 'search', 'purchases', 'receipt', 'restore'];

describe('nearest', () => {
  it('finds the word meant by a slip, a swap, a missing letter or a prefix', () => {
    expect(nearest('lsit', COMMANDS)).toBe('list');
    expect(nearest('qoute', COMMANDS)).toBe('quote');
    expect(nearest('purchses', COMMANDS)).toBe('purchases');
    expect(nearest('libary', COMMANDS)).toBe('library');
    expect(nearest('BUY', COMMANDS)).toBe('buy');
    expect(nearest('rec', COMMANDS)).toBe('receipt');
    expect(nearest('--jsn', ['--json', '--service', '--ids'])).toBe('--json');
  });

  it('suggests nothing for a word that is not close to any', () => {
    expect(nearest('frobnicate', COMMANDS)).toBeNull();
    expect(nearest('x', COMMANDS)).toBeNull();
    expect(nearest('', COMMANDS)).toBeNull();
  });
});
