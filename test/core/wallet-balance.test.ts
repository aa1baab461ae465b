import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskWithWallet, tempDir } from './helpers';
import { usdcText } from '../../src/shared/money';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let address: `0x${string}`;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  // A second service in front of the same one: another URL, so another service to the desk.
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-balance-');
  ({ desk, address } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url }));
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

describe('wallet balance per service and token', () => {
  it('shows the balance of the token the selected service quoted in, the demo token before any quote', async () => {
    // In demo mode the desk is told its one token on the demo chain: that balance is known before any quote.
    const units = await balanceOf(stack, address);
    const expected = usdcText(units);
    expect(await desk.handlers['wallet.status']({})).toMatchObject({
      balanceUnits: units.toString(),
      balanceUsdc: expected,
      network: 'eip155:31337',
    });
    const handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    expect(await desk.handlers['wallet.status']({})).toMatchObject({
      balanceUsdc: expected,
      network: quote.network,
    });

    // Another service, which has not named its token yet, falls back to the demo token, not to the last quote.
    await desk.handlers['settings.update']({ serviceUrl: stack.baseUrl });
    expect(await desk.handlers['wallet.status']({})).toMatchObject({ balanceUsdc: expected });
    // Asked for the token the quote named, the balance is known whatever service is selected.
    const token = { network: quote.network, asset: quote.asset };
    expect((await desk.handlers['wallet.status']({ token })).balanceUsdc).toBe(expected);
    // A token no quote named is not read.
    const other = { network: quote.network, asset: '0x4444444444444444444444444444444444444444' };
    expect((await desk.handlers['wallet.status']({ token: other })).balanceUsdc).toBeNull();
  });
});
