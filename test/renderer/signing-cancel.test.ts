/**
 * A wallet that never answers is not waited on for the authorization's whole life when the person stops
 * waiting (Cancel) or disconnects it here: the wait ends at once, with the reason, and says nothing was paid.
 */
import { describe, expect, it } from 'vitest';
import type { ExternalSignRequest } from '../../src/shared/rpc';
import { CANCELLED, DISCONNECTED, walletAnswer } from '../../src/renderer/screens/purchase/wallet-answer';

function request(): ExternalSignRequest {
  return {
    purchaseId: 'purchase-1',
    typedData: {
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x0' },
      types: {},
      primaryType: 'TransferWithAuthorization',
      message: { validAfter: '0', validBefore: String(Math.floor(Date.now() / 1000) + 300) },
    },
  };
}

const never = () => new Promise<`0x${string}`>(() => undefined);

describe('stopping the wait for a signature', () => {
  it('ends at Cancel, saying nothing was paid', async () => {
    const stop = new AbortController();
    const answer = walletAnswer(never(), request(), undefined, stop.signal);
    stop.abort();
    await expect(answer).rejects.toThrow(CANCELLED);
    expect(CANCELLED).toMatch(/nothing was paid/);
  });

  it('ends with the reason given, such as a disconnected wallet', async () => {
    const stop = new AbortController();
    const answer = walletAnswer(never(), request(), undefined, stop.signal);
    stop.abort(DISCONNECTED);
    await expect(answer).rejects.toThrow(DISCONNECTED);
  });

  it('ends at once when already stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(walletAnswer(never(), request(), undefined, stop.signal)).rejects.toThrow(CANCELLED);
  });

  it('keeps a signature that came before any Cancel', async () => {
    const stop = new AbortController();
    const answer = walletAnswer(Promise.resolve('0xabc'), request(), undefined, stop.signal);
    await expect(answer).resolves.toBe('0xabc');
    stop.abort();
  });
});
