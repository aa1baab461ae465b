import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskWithWallet, tempDir } from './helpers';
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
  it('shows the balance of the token the selected service quoted in, not of the last quote anywhere', async () => {
    expect((await desk.handlers['wallet.status']({})).balanceUsdc).toBeNull();
    const handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    const expected = (Number(await balanceOf(stack, address)) / 1e6).toFixed(2);
    expect(await desk.handlers['wallet.status']({})).toMatchObject({
      balanceUsdc: expected,
      network: quote.network,
    });

    // Another service has not named its token yet: no balance is guessed from the first one's quote.
    await desk.handlers['settings.update']({ serviceUrl: stack.baseUrl });
    expect(await desk.handlers['wallet.status']({})).toMatchObject({ balanceUsdc: null, network: null });
    // Asked for the token the quote named, the balance is known whatever service is selected.
    const token = { network: quote.network, asset: quote.asset };
    expect((await desk.handlers['wallet.status']({ token })).balanceUsdc).toBe(expected);
    // A token no quote named is not read.
    const other = { network: quote.network, asset: '0x4444444444444444444444444444444444444444' };
    expect((await desk.handlers['wallet.status']({ token: other })).balanceUsdc).toBeNull();
  });
});
