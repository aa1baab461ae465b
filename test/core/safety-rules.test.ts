import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { DeskError } from '../../src/core/errors';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { deployDemoToken, mintTestUsdc } from '../../src/service/chain/token';
import { deskWithWallet, tempDir } from './helpers';
import { editChallenge, startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let handle: string;
let ids: string[];
let signatures = 0;
let clock = Date.now();

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 10, maxReportsPerHandle: 10 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-hostile-');
  ({ desk } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url, now: () => clock }));
  // Count every signature the desk's keystore account produces.
  const wallet = desk.context.wallet;
  const original = wallet.unlockedAccount.bind(wallet);
  vi.spyOn(wallet, 'unlockedAccount').mockImplementation(() => {
    const account = original();
    if (!account) return account;
    return {
      ...account,
      signTypedData: (async (args: Parameters<PrivateKeyAccount['signTypedData']>[0]) => {
        signatures++;
        return account.signTypedData(args);
      }) as PrivateKeyAccount['signTypedData'],
    };
  });
  const shelf = await desk.handlers['shelf.list']({});
  handle = shelf.entries[0]!.username;
  ids = (await desk.handlers['menu.get']({ handle })).reports.map((r) => r.id);
});
afterEach(() => {
  proxy.mutate = null;
  proxy.dropPreferredHeader = false;
  clock = Date.now();
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

async function refusalOf(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).message.length).toBeGreaterThan(10);
    return (error as DeskError).code;
  }
  throw new Error('expected a refusal');
}

async function quoteRefusal(
  mutation: Parameters<typeof editChallenge>,
  selection = { kind: 'ids' as const, ids: ids.slice(0, 2) },
) {
  proxy.mutate = editChallenge(...mutation);
  const before = { signatures, payments: proxy.paymentsSeen.length };
  const code = await refusalOf(desk.handlers['quote.get']({ handle, selection }));
  expect(signatures).toBe(before.signatures);
  expect(proxy.paymentsSeen.length).toBe(before.payments);
  return code;
}

describe('rule 1: only allowlisted networks and assets', () => {
  it('refuses Ethereum mainnet, an unknown token, and the demo chain outside demo mode', async () => {
    expect(await quoteRefusal([{ network: 'eip155:1' }, { chainId: 1 }])).toBe('network_not_allowed');
    expect(
      await quoteRefusal([
        { asset: '0x1111111111111111111111111111111111111111', network: 'eip155:8453' },
        { chainId: 8453 },
      ]),
    ).toBe('asset_not_allowed');
    expect(await quoteRefusal([{}, { chainId: 8453 }])).toBe('chain_mismatch');
    const strict = await deskWithWallet(stack, tempDir('desk-strict-').dir, 0, { demo: false });
    try {
      const code = await refusalOf(strict.desk.handlers['quote.get']({ handle, selection: { kind: 'all' } }));
      expect(code).toBe('network_not_allowed');
    } finally {
      await strict.desk.close();
    }
  });
});

describe('rule 1 on the demo chain: only the demo token the local service deployed', () => {
  it('refuses another token deployed on the same local chain, funded and named like USDC, before signing', async () => {
    const other = await deployDemoToken(stack.chain.clients);
    await mintTestUsdc(stack.chain.clients, other, [privateKeyToAccount(stack.buyerKeys[0]!).address], '100');
    expect(other.address).not.toBe(stack.asset);
    expect(await quoteRefusal([{ asset: other.address }])).toBe('asset_not_allowed');
    proxy.mutate = null;
    // The real demo token is still paid, through the same proxy.
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(0, 1) },
    });
    expect(quote.asset).toBe(stack.asset);

    // A demo desk that was not told the demo token pays no token on the demo chain.
    const untold = tempDir('desk-untold-');
    const blind = await deskWithWallet(stack, untold.dir, 0, { demoAsset: undefined });
    try {
      const error = await blind.desk.handlers['quote.get']({ handle, selection: { kind: 'all' } }).then(
        () => null,
        (e: unknown) => e as DeskError,
      );
      expect(error).toMatchObject({ code: 'asset_not_allowed' });
      expect(error?.message).toMatch(/INTEL_DESK_DEMO_ASSET/);
    } finally {
      await blind.desk.close();
      untold.remove();
    }
  });
});

describe('rule 2: amount equals unit price times the chosen report count', () => {
  it('refuses an amount that does not match, a report count that is not the selection, and bad numbers', async () => {
    expect(await quoteRefusal([{ amount: '40000' }])).toBe('amount_mismatch');
    expect(await quoteRefusal([{ amount: '30000' }, { reportCount: 3 }])).toBe('report_count_mismatch');
    expect(await quoteRefusal([{ amount: '-20000' }])).toBe('invalid_amount');
    expect(await quoteRefusal([{ amount: '20000.5' }])).toBe('invalid_amount');
    expect(await quoteRefusal([{ amount: '1e30' }])).toBe('invalid_amount');
    expect(await quoteRefusal([{ amount: '9'.repeat(25) }])).toBe('amount_too_large');
    expect(await quoteRefusal([{}, { unitPriceUsd: -0.01 }])).toBe('invalid_unit_price');
    expect(await quoteRefusal([{}, { reportCount: 2.5 }])).toBe('invalid_report_count');
    expect(await quoteRefusal([{}, { tokenDecimals: 18 }])).toBe('decimals_mismatch');
    expect(await quoteRefusal([{}, {}, { x402Version: 1 }])).toBe('challenge_version');
    expect(await quoteRefusal([{ version: 3 }])).toBe('challenge_version');
    expect(await quoteRefusal([{}, {}, { accepts: [] }])).toBe('challenge_no_options');
    expect(await quoteRefusal([{}, { resource: '/api/intel/reports?username=other&select=all' }])).toBe(
      'resource_mismatch',
    );
    expect(await quoteRefusal([{ payTo: '0x0000000000000000000000000000000000000000' }])).toBe(
      'invalid_pay_to',
    );
  });

  it('signs nothing unless the user confirmed the exact amount, and holds to the caps', async () => {
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(0, 1) },
    });
    const before = signatures;
    expect(
      await refusalOf(desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: '1' })),
    ).toBe('amount_not_confirmed');
    await desk.handlers['settings.update']({ perPurchaseCapUsd: 0.005 });
    expect(
      await refusalOf(
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    ).toBe('over_purchase_cap');
    await desk.handlers['settings.update']({ perPurchaseCapUsd: 5, dailyCapUsd: 0.005 });
    expect(
      await refusalOf(
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    ).toBe('over_daily_cap');
    expect(signatures).toBe(before);
    const over = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
      acceptOverCap: true,
    });
    expect(over.status).toBe('completed');
    expect(signatures).toBe(before + 1);
    await desk.handlers['settings.update']({ dailyCapUsd: 20 });
  });
});

describe('rule 3: the payee is pinned on first purchase', () => {
  it('refuses a changed payee until the user accepts it', async () => {
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 2) },
    });
    expect(quote.payToStatus).toBe('pinned');
    proxy.mutate = editChallenge({ payTo: '0x2222222222222222222222222222222222222222' });
    const changed = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 2) },
    });
    expect(changed.payToStatus).toBe('changed');
    const before = signatures;
    expect(
      await refusalOf(
        desk.handlers['purchase.start']({ quoteId: changed.quoteId, confirmedAmount: changed.amount }),
      ),
    ).toBe('payee_changed');
    expect(signatures).toBe(before);

    // Accepted, the payment is signed for the new payee; this honest service refuses it, so the pin holds.
    const accepted = await desk.handlers['purchase.start']({
      quoteId: changed.quoteId,
      confirmedAmount: changed.amount,
      acceptPayToChange: true,
    });
    expect(signatures).toBe(before + 1);
    // Refused and unused on chain, but the signed authorization could still settle until it expires (a
    // refusal does not void it), so the purchase is held in doubt, not failed, and nothing counts as moved.
    expect(accepted).toMatchObject({ status: 'in_doubt' });
    if (accepted.status === 'in_doubt') {
      expect(accepted.message).toContain('refused the payment');
      expect(accepted.purchase).toMatchObject({ movedUsd: null, amountUsd: 0.01 });
    }
    const sent = JSON.parse(Buffer.from(proxy.paymentsSeen.at(-1)!, 'base64').toString('utf8'));
    expect(sent.payload.authorization.to).toBe('0x2222222222222222222222222222222222222222');
    proxy.mutate = null;
    const again = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 2) },
    });
    expect(again).toMatchObject({ payToStatus: 'pinned', payTo: quote.payTo });
  });
});

describe('rule 4: fresh nonces and a validity of at most 300 s', () => {
  it('caps validBefore at 300 s even when the service offers more, with a new 32-byte nonce each time', async () => {
    proxy.mutate = editChallenge({ maxTimeoutSeconds: 86_400 });
    const nonces: string[] = [];
    for (const id of ids.slice(2, 4)) {
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
      const started = Math.floor(clock / 1000);
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      // The reference service settles it: the offered timeout is not part of what it checks.
      expect(outcome.status).toBe('completed');
      const payload = JSON.parse(Buffer.from(proxy.paymentsSeen.at(-1)!, 'base64').toString('utf8'));
      const auth = payload.payload.authorization as Record<string, string>;
      expect(Number(auth['validBefore']) - started).toBeLessThanOrEqual(300);
      expect(auth['nonce']).toMatch(/^0x[0-9a-f]{64}$/);
      nonces.push(auth['nonce']!);
    }
    expect(new Set(nonces).size).toBe(2);
  });
});

describe('rule 2 and 5 between quote and payment', () => {
  it('re-prices a stale quote and refuses to pay when anything changed since the user saw it', async () => {
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(4, 6) },
    });
    clock += 61_000;
    const changes = [
      {
        mutation: editChallenge({ payTo: '0x3333333333333333333333333333333333333333' }),
        code: 'quote_changed',
      },
      { mutation: editChallenge({ amount: '30000' }, { reportCount: 3 }), code: 'report_count_mismatch' },
      { mutation: editChallenge({ network: 'eip155:8453' }, { chainId: 8453 }), code: 'asset_not_allowed' },
      // Another token on the demo chain is not the demo token: refused before it could count as a change.
      {
        mutation: editChallenge({ asset: '0x4444444444444444444444444444444444444444' }),
        code: 'asset_not_allowed',
      },
      { mutation: editChallenge({ amount: '40000' }, { unitPriceUsd: 0.02 }), code: 'quote_changed' },
      { mutation: editChallenge({ amount: '40000' }), code: 'amount_mismatch' },
      { mutation: editChallenge({ maxTimeoutSeconds: 5 }), code: 'invalid_timeout' },
    ];
    for (const { mutation, code } of changes) {
      proxy.mutate = mutation;
      const before = { signatures, payments: proxy.paymentsSeen.length };
      const refusal = await refusalOf(
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      );
      expect(refusal).toBe(code);
      expect(signatures).toBe(before.signatures);
      expect(proxy.paymentsSeen.length).toBe(before.payments);
    }
  });
});

describe('the payment is built from the latest challenge', () => {
  it('honours a validity window the service shortened after the quote', async () => {
    // The quote is dated 61 s ago, so the purchase asks for a new challenge; payment happens on the service's clock.
    clock = Date.now() - 61_000;
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(8, 9) },
    });
    clock = Date.now();
    proxy.mutate = editChallenge({ maxTimeoutSeconds: 30 });
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('completed');
    const payload = JSON.parse(Buffer.from(proxy.paymentsSeen.at(-1)!, 'base64').toString('utf8'));
    const validBefore = Number(payload.payload.authorization.validBefore);
    expect(validBefore - Math.floor(clock / 1000)).toBeLessThanOrEqual(30);
    expect(payload.accepted.maxTimeoutSeconds).toBe(30);
  });
});

describe('payment headers', () => {
  it('falls back to X-Payment with the same signed payment when the service ignores X-402-Payment', async () => {
    proxy.dropPreferredHeader = true;
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(6, 7) },
    });
    const before = { signatures, payments: proxy.paymentsSeen.length };
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('completed');
    expect(signatures).toBe(before.signatures + 1);
    const sent = proxy.paymentsSeen.slice(before.payments);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
  });
});
