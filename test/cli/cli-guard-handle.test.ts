/**
 * A handle is one handle however it is spelled: with a purchase of `ALICE` in doubt (bought in the app),
 * `intel-desk buy @alice` refuses to pay for the same reports again. Checked where the money is: no payment
 * reached the service, the balance on chain did not move, and desk.db holds only the first purchase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, deskWithWallet, ledgerRows, tempDir } from '../core/helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from '../core/hostile-proxy';
import { runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let payer: `0x${string}`;
let handle: string;
let firstId: string;
let inDoubtId: string;

function cli(args: string[]): Promise<Run> {
  return runCli(args, {
    ...stackEnv(stack, data.dir),
    INTEL_DESK_SERVICE_URL: proxy.url,
    INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[0]!,
  });
}

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  // No payment-identifier: the lost answer cannot be asked for again, so the purchase stays in doubt.
  proxy.mutate = withoutPaymentIdentifier;
  data = tempDir('desk-cli-guard-handle-');
  const opened = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url });
  payer = opened.address;
  try {
    const { desk } = opened;
    const canonical = (await desk.handlers['shelf.list']({})).entries[0]!.username;
    handle = canonical.toLowerCase();
    expect(canonical.toUpperCase()).not.toBe(handle);
    firstId = (await desk.handlers['menu.get']({ handle: canonical })).reports[0]!.id;
    // Bought as ALICE: the service settles it and a gateway answers 502, so it is in doubt.
    const quote = await desk.handlers['quote.get']({
      handle: canonical.toUpperCase(),
      selection: { kind: 'all' },
    });
    proxy.paidAnswer = { status: 502, body: '<html>Bad gateway</html>' };
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    proxy.paidAnswer = null;
    if (outcome.status !== 'in_doubt') throw new Error(`expected in doubt, got ${outcome.status}`);
    inDoubtId = outcome.purchase.id;
  } finally {
    await opened.desk.close();
  }
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

describe('the in-doubt guard and the spelling of a handle', () => {
  it('refuses `buy @alice` while a purchase of ALICE is in doubt, and nothing moves', async () => {
    const before = await balanceOf(stack, payer);
    const payments = proxy.paymentsSeen.length;
    for (const selection of [['--all'], ['--ids', firstId]]) {
      const run = await cli(['buy', `@${handle}`, ...selection, '--yes']);
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toMatch(/An earlier purchase of these reports .* is in doubt/);
      expect(run.stderr).toContain(inDoubtId);
    }
    expect(proxy.paymentsSeen).toHaveLength(payments);
    expect(await balanceOf(stack, payer)).toBe(before);
    const rows = ledgerRows(data.dir);
    expect(rows.map((row) => [row.id, row.state, row.handle])).toEqual([
      [inDoubtId, 'in_doubt', handle.toUpperCase()],
    ]);
  });
});
