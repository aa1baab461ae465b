/**
 * The pure parts behind the purchase panel and the window's refresh: plural(), the checksum-aware payee
 * comparison, the event-stream parser, which queries a change refreshes, and the words for every state.
 */
import { describe, expect, it } from 'vitest';
import { plural, pluralWord } from '../../src/renderer/format';
import { checksummed, sameAddress } from '../../src/renderer/components/Address';
import { takeEvents } from '../../src/renderer/rpc/event-stream';
import { readersOf } from '../../src/renderer/rpc/invalidation';
import {
  chosenItems,
  coveredItems,
  emptyReason,
  initialChoice,
  ownedElsewhere,
  teamBoughtHere,
  toSelection,
} from '../../src/renderer/screens/selection';
import { STEP_ANNOUNCEMENT, STEP_LABEL } from '../../src/renderer/screens/purchase/labels';
import { eventChanges, purchaseStepSchema } from '../../src/shared/events';
import { rpcEffects, type MenuItemView } from '../../src/shared/rpc';

const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('plural', () => {
  it('counts with the right noun, and gives the word alone for agreement', () => {
    expect(plural(1, 'report')).toBe('1 report');
    expect(plural(0, 'report')).toBe('0 reports');
    expect(plural(1200, 'entry', 'entries')).toBe('1,200 entries');
    expect(pluralWord(2, 'is', 'are')).toBe('are');
  });
});

describe('addresses', () => {
  it('compares a payee whatever the letter case, and never matches a non-address', () => {
    expect(sameAddress(PAYEE.toLowerCase(), PAYEE)).toBe(true);
    expect(sameAddress(PAYEE, '0x90F79bf6EB2c4f870365E785982E1f101E93b906')).toBe(false);
    expect(sameAddress('not an address', 'not an address')).toBe(false);
    expect(checksummed(PAYEE.toLowerCase())).toBe(PAYEE);
  });
});

describe('the event-stream parser', () => {
  it('takes whole events, keeps a partial one, and reads the retry delay', () => {
    const data: string[] = [];
    let retry = 0;
    const rest = takeEvents(
      'retry: 1500\n\n: still here\n\nevent: a\ndata: {"type":"library.changed"}\n\ndata: {"ty',
      (d) => data.push(d),
      (ms) => (retry = ms),
    );
    expect(data).toEqual(['{"type":"library.changed"}']);
    expect(retry).toBe(1500);
    expect(rest).toBe('data: {"ty');
  });
});

describe('what a change refreshes', () => {
  it('a purchase refreshes the library, the menu, the purchases, the wallet and the quote', () => {
    const readers = readersOf(rpcEffects['purchase.start'].changes);
    for (const method of ['library.list', 'menu.get', 'purchases.list', 'wallet.status', 'quote.get'])
      expect(readers.has(method as never), method).toBe(true);
    expect(readers.has('settings.get')).toBe(false);
  });

  it('every topic an event or a call changes is read by some method', () => {
    const changed = [
      ...Object.values(eventChanges).flat(),
      ...Object.values(rpcEffects).flatMap((e) => e.changes),
    ];
    for (const topic of new Set(changed)) expect(readersOf([topic]).size, topic).toBeGreaterThan(0);
  });
});

const item = (id: string): MenuItemView => ({
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  model: 'm',
  postCount: 1,
  dateRange: null,
  owned: true,
});

describe('the purchase panel’s words', () => {
  it('has a label and an announcement for every step', () => {
    for (const step of purchaseStepSchema.options) {
      expect(STEP_LABEL[step]).toBeTruthy();
      expect(STEP_ANNOUNCEMENT[step]).toBeTruthy();
    }
  });

  it('says every report is owned instead of "Nothing chosen."', () => {
    const reports = [item('a'), item('b')];
    const none = { ...initialChoice, mode: 'pick' as const, picked: [] };
    expect(emptyReason(reports, none)).toBe('You already own every report of this handle (2 reports).');
    expect(emptyReason(reports, initialChoice)).toBe(
      'You already own every report of this handle (2 reports).',
    );
    expect(emptyReason([{ ...item('c'), owned: false }], none)).toBe('Nothing chosen.');
  });

  it('counts the menu’s reports the library holds from another service only', () => {
    const menu = [
      { ...item('a'), owned: false },
      { ...item('b'), owned: false },
      { ...item('c'), owned: true },
    ];
    const held = [
      { id: 'a', serviceUrl: 'http://127.0.0.1:4000' },
      { id: 'a', serviceUrl: 'http://127.0.0.1:4001' },
      { id: 'c', serviceUrl: 'http://127.0.0.1:5000/' },
      { id: 'z', serviceUrl: 'http://127.0.0.1:4000' },
    ];
    expect(ownedElsewhere(menu, held, 'http://127.0.0.1:5000')).toEqual({
      count: 1,
      services: ['http://127.0.0.1:4000', 'http://127.0.0.1:4001'],
    });
    expect(ownedElsewhere(menu, held.slice(2), 'http://127.0.0.1:5000').count).toBe(0);
  });

  it('names who of the team bought a report only from the copy of this service', () => {
    const alice = { analyst: 'alice', deskId: 'a-desk' };
    const held = [
      { id: 'a', serviceUrl: 'http://127.0.0.1:4000', boughtBy: alice },
      { id: 'a', serviceUrl: 'http://127.0.0.1:5000', boughtBy: null },
      { id: 'b', serviceUrl: 'http://127.0.0.1:5000/', boughtBy: alice },
    ];
    expect(teamBoughtHere(held, 'http://127.0.0.1:5000')).toEqual(new Map([['b', alice]]));
  });

  it('leaves a report just bought out of an individual choice: unticked, and nothing priced', () => {
    const bought = { ...item('a'), owned: true };
    const other = { ...item('b'), owned: false };
    const choice = { ...initialChoice, mode: 'pick' as const, picked: ['a'] };
    expect(chosenItems([bought, other], choice)).toEqual([]);
    expect(coveredItems([bought, other], choice)).toEqual([]);
    expect(toSelection([bought, other], choice)).toBeNull();
    // Ticked again only once buying owned ones again is chosen.
    const again = { ...choice, includeOwned: true };
    expect(chosenItems([bought, other], again).map((r) => r.id)).toEqual(['a']);
    expect(toSelection([bought, other], again)).toEqual({ kind: 'ids', ids: ['a'] });
  });
});
