/**
 * `intel-desk approve` asks the person (issue 41): at a terminal it shows the service, payee, network and
 * amount and pays only on "yes"; without one it pays only with --yes; --over-cap needs the wallet passphrase
 * typed at the terminal, never from the environment. An approval pays the price the request showed or nothing,
 * and two approvals of one request in two processes at once pay once. Checked on chain and in the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startService, startStack, type Stack } from '../../src/service/stack';
import type { PurchaseRequestView } from '../../src/shared/rpc';
import {
  balanceOf,
  deskFor,
  deskWithWallet,
  firstHandle,
  ledgerRows,
  PASSPHRASE,
  tempDir,
} from '../core/helpers';
import { runCli, stackEnv, type Run } from './run-cli';
import { cliOnTerminal, hasScript } from './terminal';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let ids: string[];

/** The CLI on this library with the keystore's passphrase in the environment, as a script would have it. */
const env = () => ({ ...stackEnv(stack, data.dir), INTEL_DESK_PASSPHRASE: PASSPHRASE });
const cli = (args: string[], extra: Record<string, string | undefined> = {}): Promise<Run> =>
  runCli(args, { ...env(), ...extra });
const balance = () => balanceOf(stack, payer);

function ask(index: number, includeOwned = false): Promise<PurchaseRequestView> {
  return desk.handlers['purchaseRequest.create']({
    handle,
    selection: { kind: 'ids', ids: [ids[index]!] },
    includeOwned,
    reason: 'worth a look',
  });
}

const stateOf = async (id: string) => (await desk.handlers['purchaseRequest.get']({ id })).state;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 1,
    unitPriceUsd: 0.01,
  });
  data = tempDir('desk-cli-approve-');
  // The keystore is stored in the library, sealed with PASSPHRASE; this desk only records requests.
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir));
  await desk.handlers['wallet.lock']({});
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

describe('approve without a terminal', () => {
  it('refuses without --yes and pays nothing; with --yes it pays', async () => {
    const request = await ask(0);
    const before = await balance();
    const refused = await cli(['approve', request.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`payee    ${stack.payTo}`);
    expect(refused.stderr).toContain(`network  ${stack.network}`);
    expect(refused.stderr).toContain(`service  ${stack.baseUrl}`);
    expect(refused.stderr).toMatch(/approve pays: run it at a terminal .* or add --yes .* Nothing was paid/);
    expect(await balance()).toBe(before);
    expect(await stateOf(request.id)).toBe('pending');

    const paid = await cli(['approve', request.id, '--yes']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(await balance()).toBe(before - 10_000n);
  });

  it('refuses --over-cap even with --yes and the passphrase in the environment', async () => {
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '5000' });
    try {
      const request = await ask(1);
      const before = await balance();
      const run = await cli(['approve', request.id, '--yes', '--over-cap']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /--over-cap asks for the wallet passphrase at a terminal \(never from the environment\)/,
      );
      const capped = await cli(['approve', request.id, '--yes']);
      expect(capped.code).toBe(3);
      expect(capped.stderr).toMatch(/above your per-purchase cap.*\[over_purchase_cap\]/);
      expect(await balance()).toBe(before);
      expect(await stateOf(request.id)).toBe('pending');
    } finally {
      await desk.handlers['settings.update']({ perPurchaseCapUnits: '5000000', passphrase: PASSPHRASE });
    }
  });

  it('refuses a price that rose since the request, and pays nothing', async () => {
    const request = await ask(2);
    // The service now asks twice as much, at the same address.
    await stack.stopService();
    const dearer = await startService(stack.chain, {
      dataDir: stack.dataDir,
      unitPriceUsd: 0.02,
      librarySecret: stack.librarySecret,
      port: Number(new URL(stack.baseUrl).port),
    });
    try {
      const before = await balance();
      const rows = ledgerRows(data.dir).length;
      const run = await cli(['approve', request.id, '--yes']);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /the price of a report rose from \$0\.01 to \$0\.02; the total rose from \$0\.01 to \$0\.02; nothing was paid.*\[request_terms_changed\]/,
      );
      expect(await balance()).toBe(before);
      expect(ledgerRows(data.dir)).toHaveLength(rows);
      expect(await stateOf(request.id)).toBe('pending');
    } finally {
      await dearer.close();
      await stack.restartService();
    }
  });

  it('pays once when two processes approve the same request at once', async () => {
    // Reports owned already are bought again: only the claim can stop the second approval paying.
    const bought = await cli(['buy', handle, '--ids', ids[3]!, '--yes']);
    expect(bought.code, bought.stderr).toBe(0);
    const request = await ask(3, true);
    const before = await balance();
    const runs = await Promise.all([
      cli(['approve', request.id, '--yes']),
      cli(['approve', request.id, '--yes']),
    ]);
    expect(runs.map((r) => r.code).sort()).toEqual([0, 3]);
    expect(runs.find((r) => r.code === 3)?.stderr).toMatch(/\[request_not_pending\]/);
    expect(await balance()).toBe(before - 10_000n);
    expect(await desk.handlers['purchaseRequest.get']({ id: request.id })).toMatchObject({
      state: 'approved',
    });
  });
});

describe.skipIf(!hasScript)('approve at a terminal', () => {
  it('shows the terms and pays only when the person types yes', async () => {
    const request = await ask(4);
    const before = await balance();
    const question = `Pay $0.01 to ${stack.payTo} on ${stack.network}? Type yes to approve: `;
    const no = await cliOnTerminal(['approve', request.id], env(), [[question, 'no']]);
    expect(no.screen).toContain(`service  ${stack.baseUrl}`);
    expect(no.screen).toContain(`payee    ${stack.payTo}`);
    expect(no.screen).toMatch(/not approved: nothing was paid/);
    expect(no.code).toBe(1);
    expect(await balance()).toBe(before);
    expect(await stateOf(request.id)).toBe('pending');

    // Without the passphrase in the environment, the wallet's is asked after the yes, unseen.
    const yes = await cliOnTerminal(['approve', request.id], { ...env(), INTEL_DESK_PASSPHRASE: undefined }, [
      [question, 'yes'],
      [`Passphrase of the wallet ${payer}`, PASSPHRASE],
    ]);
    expect(yes.code, yes.screen).toBe(0);
    expect(yes.screen).not.toContain(PASSPHRASE);
    expect(await balance()).toBe(before - 10_000n);
  });

  it('goes over a cap only with the passphrase typed there, a wrong one paying nothing', async () => {
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '5000' });
    try {
      const request = await ask(5);
      const before = await balance();
      const prompt = 'Wallet passphrase, to go over a cap or a budget: ';
      const wrong = await cliOnTerminal(['approve', request.id, '--yes', '--over-cap'], env(), [
        [prompt, 'not the passphrase'],
      ]);
      expect(wrong.screen).toMatch(/does not unlock this wallet.*\[wrong_passphrase\]/);
      expect(wrong.code).toBe(3);
      expect(await balance()).toBe(before);
      expect(await stateOf(request.id)).toBe('pending');

      const right = await cliOnTerminal(['approve', request.id, '--yes', '--over-cap'], env(), [
        [prompt, PASSPHRASE],
      ]);
      expect(right.code, right.screen).toBe(0);
      expect(right.screen).not.toContain(PASSPHRASE);
      expect(await balance()).toBe(before - 10_000n);
    } finally {
      await desk.handlers['settings.update']({ perPurchaseCapUnits: '5000000', passphrase: PASSPHRASE });
    }
  });
});

describe('caps and budgets from the CLI', () => {
  it('raising needs the passphrase (a script gives it in the environment); lowering needs nothing', async () => {
    const without = await cli(['caps', '--daily', '30'], { INTEL_DESK_PASSPHRASE: undefined });
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/to raise a cap the wallet passphrase is needed/);
    const wrong = await cli(['caps', '--daily', '30'], { INTEL_DESK_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/\[wrong_passphrase\]/);
    expect((await desk.handlers['settings.get']({})).dailyCapUnits).toBe('20000000');
    expect((await cli(['caps', '--daily', '30'])).code).toBe(0);
    expect((await cli(['caps', '--daily', '20'], { INTEL_DESK_PASSPHRASE: undefined })).code).toBe(0);

    expect((await cli(['budget', handle, '1'], { INTEL_DESK_PASSPHRASE: undefined })).code).toBe(0);
    const raise = await cli(['budget', handle, '2'], { INTEL_DESK_PASSPHRASE: undefined });
    expect(raise.stderr).toMatch(/to raise a handle's budget the wallet passphrase is needed/);
    const clear = await cli(['budget', handle, '--clear'], { INTEL_DESK_PASSPHRASE: undefined });
    expect(clear.stderr).toMatch(/to clear a handle's budget the wallet passphrase is needed/);
    expect((await cli(['budget', handle, '--clear'])).code).toBe(0);
  });

  it('a library with no keystore asks nothing', async () => {
    const other = tempDir('desk-cli-approve-none-');
    try {
      await (await deskFor(stack, other.dir)).close();
      const run = await runCli(['caps', '--daily', '30'], stackEnv(stack, other.dir));
      expect(run.code, run.stderr).toBe(0);
    } finally {
      other.remove();
    }
  });
});
