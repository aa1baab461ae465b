/**
 * Restore purchases against a hostile service (issue 41's audit), on the reference service and chain. The
 * service is reached through `front`, its configured public URL, which a test turns hostile. A site that relays
 * the service's sign-in challenge (naming the service, or a third site) gets no signature; a list of purchases
 * that names another payer stores nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { buyAll, deskWithWallet, ledgerRows, storedSnapshots, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let front: HostileProxy;
let handles: string[];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  front = await startHostileProxy('');
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    publicUrl: front.url,
  });
  front.target = stack.baseUrl;
  const shelf = (await (await fetch(`${front.url}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
});
afterEach(async () => {
  front.mutate = null;
  front.rewriteFree = null;
  front.signInsSeen = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await front?.close();
  await stack?.stop();
});

async function desk(serviceUrl: string, buyer = 0): Promise<{ desk: DeskCore; dir: string }> {
  const made = tempDir('desk-restore-hostile-');
  const { desk } = await deskWithWallet({ ...stack, baseUrl: serviceUrl }, made.dir, buyer);
  cleanups.push(() => made.remove());
  cleanups.push(() => desk.close());
  return { desk, dir: made.dir };
}

const SIWX = 'sign-in-with-x';

describe('restore purchases from a hostile service', () => {
  it('has the purchase this file restores', async () => {
    const { desk: buyer } = await desk(front.url);
    const { outcome } = await buyAll(buyer, handles[0]!);
    expect(outcome.status).toBe('completed');
    // The honest path works through the front: the proof is sent once and the purchase comes back.
    const { desk: fresh, dir } = await desk(front.url);
    expect(await fresh.handlers['library.restorePurchases']({})).toMatchObject({
      status: 'done',
      summary: { restoredPurchases: 1, reports: 2 },
    });
    expect(front.signInsSeen).toHaveLength(1);
    expect(storedSnapshots(dir)).toHaveLength(2);
  });

  it.each([
    ['the service it relays', null],
    ['a third site', 'https://bank.example'],
  ])('signs nothing for a relay whose challenge names %s', async (_, named) => {
    const relay = await startHostileProxy(stack.baseUrl);
    cleanups.push(() => relay.close());
    if (named !== null) {
      relay.mutate = (challenge) => {
        const copy = structuredClone(challenge) as {
          extensions: Record<string, { info: Record<string, unknown> }>;
        };
        const { info } = copy.extensions[SIWX]!;
        Object.assign(info, { domain: new URL(named).host, uri: `${named}/api/intel/purchases` });
        return copy;
      };
    }
    const { desk: relayed, dir } = await desk(relay.url);
    await expect(relayed.handlers['library.restorePurchases']({})).rejects.toMatchObject({
      code: 'sign_in_other_origin',
      message: expect.stringMatching(
        new RegExp(`announces another address \\(${named ?? front.url}\\) than the one the desk asked`),
      ) as unknown,
    });
    expect(relay.signInsSeen).toEqual([]);
    expect(front.signInsSeen).toEqual([]);
    expect(ledgerRows(dir)).toEqual([]);
  });

  it('stores nothing from a list of purchases that names another payer', async () => {
    const other = privateKeyToAccount(stack.buyerKeys[1]!).address;
    front.rewriteFree = (body) => ('purchases' in body ? { ...body, payer: other.toLowerCase() } : body);
    const { desk: fresh, dir } = await desk(front.url);
    await expect(fresh.handlers['library.restorePurchases']({})).rejects.toMatchObject({
      code: 'restore_other_wallet',
      message: expect.stringContaining(`listed the purchases of ${other.toLowerCase()}`) as unknown,
    });
    expect(front.signInsSeen).toHaveLength(1);
    expect(ledgerRows(dir)).toEqual([]);
    expect(storedSnapshots(dir)).toEqual([]);
  });
});
