/**
 * The CLI pays a Shared Report Purchase API built with the official x402 v2 packages (@x402/express, the
 * official facilitator), on anvil acting as Base Sepolia, in the stock form and with the spec's extras: all
 * reports, a date range and chosen ids, each checked on chain, in the ledger and by reading a report back.
 * A facilitator's refusal names its reason, moves no money, and fails the purchase only once the chain says
 * the authorization has closed unused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { runCli, type Run } from '../cli/run-cli';
import { ledgerRows, tempDir } from '../core/helpers';
import {
  startBaseSepolia,
  startInteropPeer,
  type BaseSepolia,
  type InteropPeer,
  type PeerForm,
} from './fixtures';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A CLI run against the peer, on its chain, with a key for this run only, and nothing from the caller's shell. */
function cliOn(peer: InteropPeer, chain: BaseSepolia, dataDir: string, key: string) {
  return (...args: string[]): Promise<Run> =>
    runCli([...args], {
      INTEL_DESK_SERVICE_URL: peer.url,
      INTEL_DESK_DATA_DIR: dataDir,
      // Always the local chain: the public Base Sepolia endpoint is never reached from a test.
      INTEL_DESK_RPC_URL: chain.rpcUrl,
      INTEL_DESK_PRIVATE_KEY: key,
      INTEL_DESK_DEMO: undefined,
      INTEL_DESK_DEMO_ASSET: undefined,
      INTEL_DESK_PASSPHRASE: undefined,
      INTEL_DESK_LIBRARY_SECRET: undefined,
    });
}

const BUYS: { name: string; handle: string; args: string[]; ids: string[] }[] = [
  {
    name: 'all',
    handle: 'alice_intel',
    args: ['--all'],
    ids: ['alice_intel-r1', 'alice_intel-r2', 'alice_intel-r3'],
  },
  {
    name: 'a date range',
    handle: 'bob_osint',
    args: ['--from', '2026-01-12', '--to', '2026-01-19'],
    ids: ['bob_osint-r2', 'bob_osint-r3'],
  },
  {
    name: 'chosen ids',
    handle: 'carol_watch',
    args: ['--ids', 'carol_watch-r2,carol_watch-r5'],
    ids: ['carol_watch-r2', 'carol_watch-r5'],
  },
];

describe.each<PeerForm>(['stock', 'extras'])('the CLI pays an official x402 seller (%s)', (form) => {
  let chain: BaseSepolia;
  let peer: InteropPeer;
  let cli: ReturnType<typeof cliOn>;
  let dataDir: string;
  let buyer: Address;

  beforeAll(async () => {
    chain = await startBaseSepolia();
    cleanups.push(() => chain.stop());
    peer = await startInteropPeer({ chain, form });
    cleanups.push(() => peer.stop());
    const data = tempDir(`interop-cli-${form}-`);
    cleanups.push(data.remove);
    dataDir = data.dir;
    const account = chain.accounts.buyers[0]!;
    buyer = account.address;
    await chain.fund(buyer, 1_000_000n);
    cli = cliOn(peer, chain, dataDir, account.key);
  });

  it.each(BUYS)('buys $name, checked on chain and in the ledger, and reads it back', async (purchase) => {
    const before = {
      buyer: await chain.balanceOf(buyer),
      payee: await chain.balanceOf(peer.payTo),
      paid: peer.paidRequests.length,
    };
    const quote = await cli('quote', purchase.handle, ...purchase.args);
    expect(quote.code, quote.stderr).toBe(0);
    const price = BigInt(purchase.ids.length) * 10_000n;
    expect(quote.stdout).toContain(
      `${purchase.ids.length} report${purchase.ids.length === 1 ? '' : 's'} of @${purchase.handle}`,
    );
    if (form === 'stock')
      expect(quote.stdout).toMatch(
        /Intel Desk derived the report count from your selection and the free menu/,
      );
    else expect(quote.stdout).not.toMatch(/derived/);

    const bought = await cli('buy', purchase.handle, ...purchase.args, '--yes', '--json');
    expect(bought.code, bought.stderr).toBe(0);
    const outcome = JSON.parse(bought.stdout) as { status: string; purchase: { id: string; txHash: string } };
    expect(outcome.status).toBe('completed');

    expect(await chain.balanceOf(buyer)).toBe(before.buyer - price);
    expect(await chain.balanceOf(peer.payTo)).toBe(before.payee + price);
    const paid = peer.paidRequests.slice(before.paid);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.status).toBe(200);
    const row = ledgerRows(dataDir).find((r) => r.id === outcome.purchase.id);
    expect(row).toMatchObject({ state: 'completed', amount: price.toString(), payer: buyer });
    expect(JSON.parse(row!.report_ids ?? '[]')).toEqual(expect.arrayContaining(purchase.ids));
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: row!.tx_hash as `0x${string}` });
    expect(receipt.status).toBe('success');

    const read = await cli('read', purchase.ids[0]!);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain(purchase.handle);
  });

  it('says that the seller offers no restoring of purchases, and changes nothing', async () => {
    const before = ledgerRows(dataDir);
    const restore = await cli('restore');
    expect(restore.code).not.toBe(0);
    expect(restore.stderr).toMatch(/does not offer restoring purchases with sign-in-with-x/);
    expect(restore.stderr).not.toMatch(/\n\s+at /);
    expect(ledgerRows(dataDir)).toEqual(before);
  });
});

describe('a refusal by the official facilitator', () => {
  it('names the reason, moves no money, and fails only once the chain shows the authorization closed', async () => {
    const chain = await startBaseSepolia({ mining: 'auto' });
    cleanups.push(() => chain.stop());
    const peer = await startInteropPeer({ chain, form: 'stock' });
    cleanups.push(() => peer.stop());
    const data = tempDir('interop-cli-poor-');
    cleanups.push(data.remove);
    const poor = chain.accounts.buyers[1]!;
    await chain.fund(poor.address, 5_000n); // half a report
    const cli = cliOn(peer, chain, data.dir, poor.key);
    const payeeBefore = await chain.balanceOf(peer.payTo);

    const bought = await cli('buy', 'alice_intel', '--ids', 'alice_intel-r1', '--yes');
    expect(bought.code).toBe(5);
    expect(bought.stdout + bought.stderr).toMatch(
      /balance is below the price \(invalid_exact_evm_insufficient_balance\)/,
    );
    expect(await chain.balanceOf(poor.address)).toBe(5_000n);
    expect(await chain.balanceOf(peer.payTo)).toBe(payeeBefore);
    const [row] = ledgerRows(data.dir);
    expect(row).toMatchObject({ state: 'in_doubt' });
    expect(await chain.authorizationState(poor.address, row!.nonce as `0x${string}`)).toBe(false);

    // Buying again is refused while the signed authorization could still settle.
    const again = await cli('buy', 'alice_intel', '--ids', 'alice_intel-r1', '--yes');
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toMatch(/in doubt/i);
    expect(peer.paidRequests).toHaveLength(1);

    // The chain's clock passes validBefore with the authorization unused: now, and only now, it failed.
    const closesIn = row!.valid_before - Number((await chain.publicClient.getBlock()).timestamp) + 1;
    await chain.publicClient.request({ method: 'evm_increaseTime' as never, params: [closesIn] as never });
    await chain.publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    const history = await cli('purchases', '--json');
    expect(history.code, history.stderr).toBe(0);
    expect(ledgerRows(data.dir)[0]).toMatchObject({ state: 'failed' });
  });
});
