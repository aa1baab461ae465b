/**
 * A receipt checked on a chain that cannot hold its payment (a demo chain started anew, a chain without the
 * token, one that does not know the settlement) says it cannot be checked there, never that no money moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startStack, type Stack } from '../../src/service/stack';
import { startDemoChain, type DemoChain } from '../../src/service/chain/demo-chain';
import { startAnvil, type Anvil } from '../../src/service/chain/anvil';
import { buyAll, deskWithWallet, deskFor, firstHandle, tempDir } from '../core/helpers';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let purchaseId: string;
let later: DemoChain;
let bare: Anvil;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 },
    buyerCount: 1,
  });
  data = tempDir('desk-receipt-chain-');
  const { desk } = await deskWithWallet(stack, data.dir);
  const { outcome } = await buyAll(desk, (await firstHandle(stack)).handle);
  if (outcome.status !== 'completed') throw new Error(`the purchase did not complete: ${outcome.status}`);
  purchaseId = outcome.purchase.id;
  await desk.close();
  // Started after the purchase, as a demo's chain that was not kept: the same deployer puts its token at the
  // same address, so only the chain's history tells it apart.
  later = await startDemoChain({ buyerCount: 1, mining: 'auto' });
  bare = await startAnvil({ chainId: stack.chainId });
});
afterAll(async () => {
  await later?.stop();
  await bare?.stop();
  await stack?.stop();
  data?.remove();
});

/** Runs `change` on the purchase's ledger row, then puts it back. */
function withRow<T>(column: 'created_at' | 'nonce', value: string, run: () => Promise<T>): Promise<T> {
  const db = new Database(path.join(data.dir, 'desk.db'));
  const before = db.prepare(`SELECT ${column} FROM purchases WHERE id = ?`).pluck().get(purchaseId) as string;
  const set = db.prepare(`UPDATE purchases SET ${column} = ? WHERE id = ?`);
  set.run(value, purchaseId);
  return run().finally(() => {
    set.run(before, purchaseId);
    db.close();
  });
}

async function verification(rpcUrl: string) {
  const desk = await deskFor(stack, data.dir, { rpcUrl });
  try {
    return (await desk.handlers['receipt.get']({ purchaseId, verify: true })).verification;
  } finally {
    await desk.close();
  }
}

describe('a receipt verified on a chain that is not the payment’s', () => {
  it('verifies on the chain it was paid on', async () => {
    expect((await verification(stack.rpcUrl))?.status).toBe('verified');
  });

  it('says a chain that began after the purchase cannot check it', async () => {
    expect(later.asset).toBe(stack.asset);
    // A minute back, so the chain's start (whole seconds) is after it even within the same second.
    const earlier = new Date(Date.now() - 60_000).toISOString();
    const result = await withRow('created_at', earlier, () => verification(later.rpcUrl));
    expect(result).toMatchObject({ status: 'unavailable' });
    const message = result && 'message' in result ? result.message : '';
    expect(message).toMatch(/began at .*, after this purchase was made/);
    expect(message).toMatch(/the receipt cannot be checked there/);
    expect(message).not.toMatch(/no money moved/);
  });

  it('says a chain that does not know the named transaction cannot check it', async () => {
    const afterStart = new Date(Date.now() + 60_000).toISOString();
    const result = await withRow('created_at', afterStart, () => verification(later.rpcUrl));
    expect(result).toMatchObject({ status: 'unavailable' });
    expect(result && 'message' in result ? result.message : '').toMatch(
      /does not know the transaction the service named \(0x[0-9a-f]{64}\), so the receipt cannot be checked there/,
    );
  });

  it('says a chain without the token cannot check it', async () => {
    const result = await verification(bare.rpcUrl);
    expect(result).toMatchObject({ status: 'unavailable' });
    expect(result && 'message' in result ? result.message : '').toMatch(
      /The token 0x[0-9a-fA-F]{40} is not on the chain this RPC serves, so the receipt cannot be checked there/,
    );
  });

  it('still says no money moved for an authorization the payment’s own chain never used', async () => {
    const unused = `0x${'5a'.repeat(32)}`;
    const result = await withRow('nonce', unused, () => verification(stack.rpcUrl));
    expect(result).toMatchObject({ status: 'not_settled' });
    expect(result && 'message' in result ? result.message : '').toMatch(/no money moved/);
  });
});
