/**
 * The price panel's words for an earlier, unresolved purchase of the choice: only for one really in doubt or
 * still unanswered after a moment, never during an ordinary send.
 */
import { describe, expect, it } from 'vitest';
import { UNRESOLVED_AFTER_MS, unresolvedNote } from '../../src/renderer/screens/purchase/unresolved';

const at = Date.parse('2026-11-28T12:00:00.000Z');
const sent = (msAgo: number) =>
  ({ purchaseId: 'p1', state: 'sent', createdAt: new Date(at - msAgo).toISOString() }) as const;

describe('the unresolved-purchase note', () => {
  it('says nothing while this panel’s own purchase is being sent', () => {
    expect(unresolvedNote(sent(80), true, at, at)).toEqual({ show: false, recheckInMs: null });
    expect(unresolvedNote(sent(60_000), true, at, at).show).toBe(false);
  });

  it('waits a moment for a purchase just sent, then says it is on its way', () => {
    expect(unresolvedNote(sent(100), false, at, at)).toEqual({
      show: false,
      recheckInMs: UNRESOLVED_AFTER_MS - 100,
    });
    expect(unresolvedNote(sent(100), false, at + UNRESOLVED_AFTER_MS, at).show).toBe(true);
    expect(unresolvedNote(sent(60_000), false, at, at)).toEqual({ show: true, recheckInMs: null });
  });

  it('counts the moment from when it was seen when core’s clock is ahead of the window’s', () => {
    const ahead = sent(-60_000);
    expect(unresolvedNote(ahead, false, at, at)).toEqual({ show: false, recheckInMs: UNRESOLVED_AFTER_MS });
    expect(unresolvedNote(ahead, false, at + UNRESOLVED_AFTER_MS, at).show).toBe(true);
  });

  it('always names a purchase in doubt', () => {
    const inDoubt = { ...sent(10), state: 'in_doubt' } as const;
    expect(unresolvedNote(inDoubt, true, at, at)).toEqual({ show: true, recheckInMs: null });
  });
});
