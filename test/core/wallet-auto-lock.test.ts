/**
 * An unlocked keystore locks itself after the idle time set in Settings (decision 0029), measured on the
 * desk's injectable clock: reading the wallet is not use, signing is, and the next purchase after the lock
 * asks for the passphrase again. Real service, real chain, real purchase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { DeskError } from '../../src/core/base/errors';
import type { DeskEvent } from '../../src/shared/events';
import { dispatch } from '../../src/host/dispatch';
import { PASSPHRASE, deskWithWallet, firstHandle, tempDir } from './helpers';

let stack: Stack;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await stack?.stop();
});

/** The desk's clock: the real one moved ahead by `ahead` ms (kept within the four minutes a signature allows). */
function movableClock() {
  let ahead = 0;
  return { now: () => Date.now() + ahead, advance: (ms: number) => (ahead += ms) };
}

async function code(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    if (error instanceof DeskError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('wallet auto-lock', () => {
  it('locks after the idle time set, counting signatures as use and status reads not, and asks again', async () => {
    const data = tempDir('desk-autolock-');
    const clock = movableClock();
    const { desk } = await deskWithWallet(stack, data.dir, 0, {
      now: clock.now,
      autoLockWallet: true,
      autoLockCheckMs: 3_600_000,
    });
    try {
      expect((await desk.handlers['settings.get']({})).autoLockMinutes).toBe(15);
      await desk.handlers['settings.update']({ autoLockMinutes: 1 });
      const buy = async (id: string) => {
        const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
        return desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
      };
      clock.advance(50_000);
      expect((await desk.handlers['wallet.status']({})).unlocked).toBe(true);
      // A purchase signs at 50 s: the minute starts again from there.
      expect(await buy(ids[0]!)).toMatchObject({ status: 'completed' });
      clock.advance(50_000);
      expect((await desk.handlers['wallet.status']({})).unlocked).toBe(true);
      clock.advance(11_000);
      expect((await desk.handlers['wallet.status']({})).unlocked).toBe(false);
      expect(await code(buy(ids[1]!))).toBe('wallet_locked');
      await desk.handlers['wallet.unlock']({ passphrase: PASSPHRASE });
      expect(await buy(ids[1]!)).toMatchObject({ status: 'completed' });
    } finally {
      await desk.close();
      data.remove();
    }
  });

  it('locks on its own timer, telling the window, without anything being asked', async () => {
    const data = tempDir('desk-autolock-timer-');
    const clock = movableClock();
    const events: DeskEvent[] = [];
    const { desk } = await deskWithWallet(stack, data.dir, 0, {
      now: clock.now,
      autoLockWallet: true,
      autoLockCheckMs: 5,
      onEvent: (event) => events.push(event),
    });
    try {
      await desk.handlers['settings.update']({ autoLockMinutes: 1 });
      events.length = 0;
      clock.advance(61_000);
      await expect.poll(() => events).toContainEqual({ type: 'wallet.changed' });
      expect((await desk.handlers['wallet.status']({})).unlocked).toBe(false);
    } finally {
      await desk.close();
      data.remove();
    }
  });

  it('is off where the host does not ask for it (the CLI, the demo)', async () => {
    const data = tempDir('desk-autolock-off-');
    const clock = movableClock();
    const { desk } = await deskWithWallet(stack, data.dir, 0, { now: clock.now });
    try {
      await desk.handlers['settings.update']({ autoLockMinutes: 1 });
      clock.advance(120_000);
      expect((await desk.handlers['wallet.status']({})).unlocked).toBe(true);
    } finally {
      await desk.close();
      data.remove();
    }
  });

  it('refuses an idle time outside whole minutes from 1 to 24 hours', async () => {
    const data = tempDir('desk-autolock-range-');
    const { desk } = await deskWithWallet(stack, data.dir, 0, { autoLockWallet: true });
    try {
      for (const autoLockMinutes of [0, 1441, 2.5])
        expect(await dispatch(desk.handlers, 'settings.update', { autoLockMinutes })).toMatchObject({
          ok: false,
          error: { code: 'invalid_input' },
        });
      expect(await dispatch(desk.handlers, 'settings.update', { autoLockMinutes: 1440 })).toMatchObject({
        ok: true,
        value: { autoLockMinutes: 1440 },
      });
    } finally {
      await desk.close();
      data.remove();
    }
  });
});
