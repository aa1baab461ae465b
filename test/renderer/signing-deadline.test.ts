/**
 * The window's wait for a connected wallet's signature ends while a signature could still pay: core refuses
 * one that reaches it less than 10 s before the authorization's validBefore (submitSignature in
 * src/core/payments/purchaser.ts), so past that moment waiting only keeps the person looking at a spinner for
 * a signature that pays nothing. On a fake clock: the wait is still on a minute before, and over by then.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExternalSignRequest } from '../../src/shared/rpc';
import { walletAnswer } from '../../src/renderer/screens/purchase/wallet-answer';

/** Core's own margin: a signature arriving later than this before validBefore is refused, unsent. */
const CORE_REFUSES_WITHIN_MS = 10_000;
const START = Date.parse('2026-11-28T12:00:00Z');
/** Core dates an authorization at most 300 s ahead. */
const VALID_BEFORE_MS = START + 300_000;

function request(): ExternalSignRequest {
  return {
    purchaseId: 'purchase-1',
    typedData: {
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x0' },
      types: {},
      primaryType: 'TransferWithAuthorization',
      message: { validAfter: '0', validBefore: String(VALID_BEFORE_MS / 1000) },
    },
  };
}

/** The wait's state as the fake clock moves: pending, signed, or given up with a reason. */
function watch(signing: Promise<`0x${string}`>) {
  const state: { settled: 'pending' | 'signed' | 'gave up'; reason: string } = {
    settled: 'pending',
    reason: '',
  };
  walletAnswer(signing, request(), undefined).then(
    () => (state.settled = 'signed'),
    (error: unknown) => {
      state.settled = 'gave up';
      state.reason = error instanceof Error ? error.message : String(error);
    },
  );
  return state;
}

/** Moves the fake clock to `at` and lets the promises that became due settle. */
async function clockAt(at: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(at - Date.now());
}

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('waiting for a wallet that does not answer', () => {
  it('is still on a minute before validBefore, and over before core would refuse the signature', async () => {
    const state = watch(new Promise<`0x${string}`>(() => undefined));
    await clockAt(VALID_BEFORE_MS - 60_000);
    expect(state.settled).toBe('pending');
    await clockAt(VALID_BEFORE_MS - CORE_REFUSES_WITHIN_MS);
    expect(state.settled).toBe('gave up');
    expect(state.reason).toMatch(/did not sign before the payment's authorization expired/);
  });

  it('hands on a signature given in time, and never one given after the wait ended', async () => {
    let sign: (signature: `0x${string}`) => void = () => undefined;
    const inTime = watch(new Promise<`0x${string}`>((resolve) => (sign = resolve)));
    await clockAt(VALID_BEFORE_MS - 30_000);
    sign('0x01');
    await vi.advanceTimersByTimeAsync(0);
    expect(inTime.settled).toBe('signed');

    const late = watch(new Promise<`0x${string}`>((resolve) => (sign = resolve)));
    await clockAt(VALID_BEFORE_MS - CORE_REFUSES_WITHIN_MS + 1_000);
    sign('0x02');
    await vi.advanceTimersByTimeAsync(0);
    expect(late.settled).toBe('gave up');
  });
});
