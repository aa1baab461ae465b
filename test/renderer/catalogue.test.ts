/**
 * A screen's words come from its catalogue (decision 0049): a translation is a file of the same keys, chosen
 * by locale or language, English where it lacks a key, and {names} filled from the screen's values.
 */
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/renderer/text/catalogue';
import { BUDGETS_TEXT } from '../../src/renderer/text/budgets';
import { CAPS_TEXT } from '../../src/renderer/text/caps';
import { REPORT_TEXT } from '../../src/renderer/text/report';
import { SPEND_TEXT } from '../../src/renderer/text/spend';
import { PURCHASE_TEXT } from '../../src/renderer/text/purchase';
import { RECEIPT_TEXT } from '../../src/renderer/text/receipt';
import { LIBRARY_TEXT } from '../../src/renderer/text/library';

const ENGLISH = { save: 'Save caps', over: 'Over by {amount} on @{handle}' } as const;
const GERMAN = { de: { save: 'Limits speichern' } };

describe('catalogue', () => {
  it('fills a message’s {names}, leaving an unknown one as written', () => {
    const t = catalogue(ENGLISH, {}, 'en-US');
    expect(t('over', { amount: '2,50 $', handle: 'alice' })).toBe('Over by 2,50 $ on @alice');
    expect(t('over', { amount: '1' })).toBe('Over by 1 on @{handle}');
  });

  it('takes a translation by locale or language, and English for a key it lacks', () => {
    const t = catalogue(ENGLISH, GERMAN, 'de-DE');
    expect(t('save')).toBe('Limits speichern');
    expect(t('over', { amount: '1', handle: 'a' })).toBe('Over by 1 on @a');
    expect(catalogue(ENGLISH, { 'de-AT': { save: 'Limits sichern' }, ...GERMAN }, 'de-AT')('save')).toBe(
      'Limits sichern',
    );
    expect(catalogue(ENGLISH, GERMAN, 'fr-FR')('save')).toBe('Save caps');
    expect(catalogue(ENGLISH, GERMAN, undefined)('save')).toBe('Save caps');
  });

  it('has no empty message in the screens’ catalogues', () => {
    for (const messages of [
      BUDGETS_TEXT,
      CAPS_TEXT,
      REPORT_TEXT,
      SPEND_TEXT,
      LIBRARY_TEXT,
      PURCHASE_TEXT,
      RECEIPT_TEXT,
    ])
      for (const text of Object.values(messages)) expect(text.trim()).not.toBe('');
  });
});
