/**
 * The payment safety rules of docs/ARCHITECTURE.md, each against the reference service behind a proxy that rewrites its
 * challenges. Every test has a desk of its own (its own ledger, pin and clock), so each runs alone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, DeskCoreOptions } from '../../src/core';
import { DeskError } from '../../src/core/base/errors';
import { BASE_MAINNET_USDC, BASE_SEPOLIA_USDC } from '../../src/core/payments/allowlist';
import { VALID_AFTER_LEAD_SECONDS } from '../../src/core/payments/chain-clock';
import { deployDemoToken, mintTestUsdc } from '../../src/service/chain/token';
import { openServiceDb } from '../../src/service/store/db';
import { HandleStore } from '../../src/service/store/handles';
import { NonceBook } from '../../src/service/payment/nonces';
import { PaymentVerifier } from '../../src/service/payment/verify';
import { listenService } from '../../src/service/http/server';
import {
  balanceOf,
  deskWithWallet,
  ledgerRows,
  firstHandle,
  onPurchaseSteps,
  PASSPHRASE,
  tempDir,
} from './helpers';
import { sameDayClock } from './clock';
import { editChallenge, startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let handle: string;
let ids: string[];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 10, maxReportsPerHandle: 10 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  ({ handle, ids } = await firstHandle(stack));
});
afterEach(async () => {
  proxy.mutate = null;
  proxy.onlyPaymentHeader = null;
  proxy.paidAnswer = null;
  proxy.target = stack.baseUrl;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

interface TestDesk {
  desk: DeskCore;
  dir: string;
  payer: Address;
  /** The desk's clock (the injectable `now`), in ms; starts at the real time. */
  clock: { now: number };
  /** Signatures the desk's keystore started (the 'signing' step comes right before each). */
  signatures: () => number;
}

/** A desk of this test's own, with a wallet, talking to the service through the proxy. */
async function newDesk(options: Partial<DeskCoreOptions> = {}): Promise<TestDesk> {
  const data = tempDir('desk-safety-');
  cleanups.push(data.remove);
  const clock = { now: Date.now() };
  let signatures = 0;
  const { desk, address } = await deskWithWallet(stack, data.dir, 0, {
    serviceUrl: proxy.url,
    now: () => clock.now,
    onEvent: onPurchaseSteps((_id, step) => {
      if (step === 'signing') signatures++;
    }),
    ...options,
  });
  cleanups.push(() => desk.close());
  return { desk, dir: data.dir, payer: address, clock, signatures: () => signatures };
}

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
  t: TestDesk,
  mutation: Parameters<typeof editChallenge>,
  selection = { kind: 'ids' as const, ids: ids.slice(0, 2) },
) {
  proxy.mutate = editChallenge(...mutation);
  const before = { signatures: t.signatures(), payments: proxy.paymentsSeen.length };
  const code = await refusalOf(t.desk.handlers['quote.get']({ handle, selection }));
  expect(t.signatures()).toBe(before.signatures);
  expect(proxy.paymentsSeen.length).toBe(before.payments);
  return code;
}

const one = (index: number) => ({ kind: 'ids' as const, ids: [ids[index]!] });

async function buy(t: TestDesk, index: number, extra: { acceptOverCap?: boolean } = {}) {
  const quote = await t.desk.handlers['quote.get']({ handle, selection: one(index) });
  return t.desk.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
    ...extra,
  });
}

/** The authorization of the last payment the proxy saw. */
function lastAuthorization(): Record<string, string> {
  const payload = JSON.parse(Buffer.from(proxy.paymentsSeen.at(-1)!, 'base64').toString('utf8'));
  return payload.payload.authorization as Record<string, string>;
}

describe('rule 1: only allowlisted networks and assets', () => {
  it('refuses Ethereum mainnet, an unknown token, and the demo chain outside demo mode', async () => {
    const t = await newDesk();
    expect(await quoteRefusal(t, [{ network: 'eip155:1' }, { chainId: 1 }])).toBe('network_not_allowed');
    expect(
      await quoteRefusal(t, [
        { asset: '0x1111111111111111111111111111111111111111', network: 'eip155:8453' },
        { chainId: 8453 },
      ]),
    ).toBe('asset_not_allowed');
    expect(await quoteRefusal(t, [{}, { chainId: 8453 }])).toBe('chain_mismatch');
    const strict = await newDesk({ demo: false });
    proxy.mutate = null;
    const code = await refusalOf(strict.desk.handlers['quote.get']({ handle, selection: { kind: 'all' } }));
    expect(code).toBe('network_not_allowed');
  });

  it('takes USDC on Base Sepolia, and refuses another token or token name on Base Sepolia', async () => {
    for (const demo of [true, false]) {
      const t = await newDesk({ demo });
      proxy.mutate = editChallenge(
        {
          network: BASE_SEPOLIA_USDC.network,
          asset: BASE_SEPOLIA_USDC.asset,
          extra: { name: 'USDC', version: '2' },
        },
        { chainId: 84532 },
      );
      const quote = await t.desk.handlers['quote.get']({ handle, selection: one(0) });
      expect(quote).toMatchObject({ network: 'eip155:84532', asset: BASE_SEPOLIA_USDC.asset });
      // Mainnet's USDC address is not USDC on Base Sepolia, nor is the demo token.
      for (const asset of [BASE_MAINNET_USDC.asset, stack.asset]) {
        expect(
          await quoteRefusal(t, [
            { network: 'eip155:84532', asset, extra: { name: 'USDC', version: '2' } },
            { chainId: 84532 },
          ]),
        ).toBe('asset_not_allowed');
      }
      // Base Sepolia's USDC signs as "USDC": a challenge naming it "USD Coin" would get a signature it rejects.
      expect(
        await quoteRefusal(t, [
          {
            network: 'eip155:84532',
            asset: BASE_SEPOLIA_USDC.asset,
            extra: { name: 'USD Coin', version: '2' },
          },
          { chainId: 84532 },
        ]),
      ).toBe('token_domain_mismatch');
      expect(
        await quoteRefusal(t, [
          { network: 'eip155:84532', asset: BASE_SEPOLIA_USDC.asset },
          { chainId: 8453 },
        ]),
      ).toBe('chain_mismatch');
    }
  });
});

describe('rule 1 on the demo chain: only the demo token the local service deployed', () => {
  it('refuses another token deployed on the same local chain, funded and named like USDC, before signing', async () => {
    const t = await newDesk();
    const other = await deployDemoToken(stack.chain.clients);
    await mintTestUsdc(stack.chain.clients, other, [t.payer], '100');
    expect(other.address).not.toBe(stack.asset);
    expect(await quoteRefusal(t, [{ asset: other.address }])).toBe('asset_not_allowed');
    proxy.mutate = null;
    // The real demo token is still paid, through the same proxy.
    const quote = await t.desk.handlers['quote.get']({ handle, selection: one(0) });
    expect(quote.asset).toBe(stack.asset);

    // A demo desk that was not told the demo token pays no token on the demo chain.
    const blind = await newDesk({ demoAsset: undefined });
    const error = await blind.desk.handlers['quote.get']({ handle, selection: { kind: 'all' } }).then(
      () => null,
      (e: unknown) => e as DeskError,
    );
    expect(error).toMatchObject({ code: 'asset_not_allowed' });
    expect(error?.message).toMatch(/INTEL_DESK_DEMO_ASSET/);
  });
});

describe('rule 2: amount equals unit price times the chosen report count', () => {
  it('refuses an amount that does not match, a report count that is not the selection, and bad numbers', async () => {
    const t = await newDesk();
    expect(await quoteRefusal(t, [{ amount: '40000' }])).toBe('amount_mismatch');
    expect(await quoteRefusal(t, [{ amount: '30000' }, { reportCount: 3 }])).toBe('report_count_mismatch');
    expect(await quoteRefusal(t, [{ amount: '-20000' }])).toBe('invalid_amount');
    expect(await quoteRefusal(t, [{ amount: '20000.5' }])).toBe('invalid_amount');
    expect(await quoteRefusal(t, [{ amount: '1e30' }])).toBe('invalid_amount');
    expect(await quoteRefusal(t, [{ amount: '9'.repeat(25) }])).toBe('amount_too_large');
    expect(await quoteRefusal(t, [{}, { unitPriceUsd: -0.01 }])).toBe('invalid_unit_price');
    expect(await quoteRefusal(t, [{}, { reportCount: 2.5 }])).toBe('invalid_report_count');
    expect(await quoteRefusal(t, [{}, { tokenDecimals: 18 }])).toBe('decimals_mismatch');
    expect(await quoteRefusal(t, [{}, {}, { x402Version: 1 }])).toBe('challenge_version');
    expect(await quoteRefusal(t, [{ version: 3 }])).toBe('challenge_version');
    expect(await quoteRefusal(t, [{}, {}, { accepts: [] }])).toBe('challenge_no_options');
    expect(await quoteRefusal(t, [{}, { resource: '/api/intel/reports?username=other&select=all' }])).toBe(
      'resource_mismatch',
    );
    expect(await quoteRefusal(t, [{ payTo: '0x0000000000000000000000000000000000000000' }])).toBe(
      'invalid_pay_to',
    );
  });

  it('signs nothing unless the user confirmed the exact amount, and holds to the caps', async () => {
    const t = await newDesk();
    const quote = await t.desk.handlers['quote.get']({ handle, selection: one(0) });
    const before = await balanceOf(stack, t.payer);
    expect(
      await refusalOf(t.desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: '1' })),
    ).toBe('amount_not_confirmed');
    await t.desk.handlers['settings.update']({ perPurchaseCapUnits: '5000' });
    expect(
      await refusalOf(
        t.desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    ).toBe('over_purchase_cap');
    await t.desk.handlers['settings.update']({
      perPurchaseCapUnits: '5000000',
      dailyCapUnits: '5000',
      passphrase: PASSPHRASE,
    });
    expect(
      await refusalOf(
        t.desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    ).toBe('over_daily_cap');
    expect(t.signatures()).toBe(0);
    expect(ledgerRows(t.dir)).toEqual([]);
    expect(await balanceOf(stack, t.payer)).toBe(before);
    const over = await t.desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
      acceptOverCap: true,
      passphrase: PASSPHRASE,
    });
    expect(over.status).toBe('completed');
    expect(t.signatures()).toBe(1);
    expect(await balanceOf(stack, t.payer)).toBe(before - BigInt(quote.amount));
  });
});

describe('the daily cap counts what was spent today', () => {
  it('adds up purchases, counts one in doubt, and refuses the one that would go over', async () => {
    const t = await newDesk();
    // The real time, or just past local midnight when that is near: one day for the test (clock.ts).
    t.clock.now = sameDayClock()();
    await t.desk.handlers['settings.update']({ dailyCapUnits: '35000' });
    expect((await buy(t, 0)).status).toBe('completed');
    // A gateway loses the answer after the service settled: in doubt, and it counts as spent.
    proxy.paidAnswer = { status: 502, body: '<h1>Bad gateway</h1>' };
    expect((await buy(t, 1)).status).toBe('in_doubt');
    proxy.paidAnswer = null;
    expect((await buy(t, 2)).status).toBe('completed');
    expect((await t.desk.handlers['purchases.list']({})).spentTodayUnits).toBe('30000');
    const signed = t.signatures();
    const before = await balanceOf(stack, t.payer);
    const quote = await t.desk.handlers['quote.get']({ handle, selection: one(3) });
    const refusal = await t.desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    }).then(
      () => null,
      (error: unknown) => error as DeskError,
    );
    expect(refusal).toMatchObject({ code: 'over_daily_cap' });
    expect(refusal?.message).toContain('With $0.03 already spent today, $0.01 more goes over');
    expect(t.signatures()).toBe(signed);
    expect(await balanceOf(stack, t.payer)).toBe(before);
    expect(ledgerRows(t.dir).map((row) => row.state)).toEqual(['completed', 'in_doubt', 'completed']);
  });

  it('starts again at local midnight, on the desk clock', async () => {
    const t = await newDesk();
    await t.desk.handlers['settings.update']({ dailyCapUnits: '15000' });
    expect((await buy(t, 0)).status).toBe('completed');
    const midnight = new Date(t.clock.now);
    midnight.setHours(24, 0, 0, 0);
    // Quoted and started on the desk clock: a quote from hours before would be stale and forgotten.
    const start = async () => {
      const quote = await t.desk.handlers['quote.get']({ handle, selection: one(1) });
      return t.desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
    };

    t.clock.now = midnight.getTime() - 1000;
    expect(await refusalOf(start())).toBe('over_daily_cap');
    expect((await t.desk.handlers['purchases.list']({})).spentTodayUnits).toBe('10000');

    t.clock.now = midnight.getTime() + 1000;
    expect((await t.desk.handlers['purchases.list']({})).spentTodayUnits).toBe('0');
    // The cap no longer stands in the way; what answers next is the clock check (the desk is now hours ahead
    // of the service and the chain) or, just before midnight in real time, the completed purchase.
    const next = await start().then(
      (outcome) => outcome.status as string,
      (error: unknown) => (error as DeskError).code,
    );
    expect(next).not.toBe('over_daily_cap');
    expect(['clock_skew', 'completed']).toContain(next);
  });
});

describe('rule 3: the payee is pinned on first purchase', () => {
  it('refuses a changed payee until the user accepts it; an accepted change the service refuses keeps the pin', async () => {
    const t = await newDesk();
    const first = await t.desk.handlers['quote.get']({ handle, selection: one(0) });
    expect(first.payToStatus).toBe('new');
    expect((await buy(t, 0)).status).toBe('completed');
    const quote = await t.desk.handlers['quote.get']({ handle, selection: one(1) });
    expect(quote).toMatchObject({ payToStatus: 'pinned', payTo: stack.payTo });
    proxy.mutate = editChallenge({ payTo: '0x2222222222222222222222222222222222222222' });
    const changed = await t.desk.handlers['quote.get']({ handle, selection: one(1) });
    expect(changed.payToStatus).toBe('changed');
    const before = t.signatures();
    expect(
      await refusalOf(
        t.desk.handlers['purchase.start']({ quoteId: changed.quoteId, confirmedAmount: changed.amount }),
      ),
    ).toBe('payee_changed');
    expect(t.signatures()).toBe(before);

    // Accepted, the payment is signed for the new payee; this honest service refuses it, so the pin holds.
    const accepted = await t.desk.handlers['purchase.start']({
      quoteId: changed.quoteId,
      confirmedAmount: changed.amount,
      acceptPayToChange: true,
    });
    expect(t.signatures()).toBe(before + 1);
    // Refused and unused on chain, but the signed authorization could still settle until it expires (a
    // refusal does not void it), so the purchase is held in doubt, not failed, and nothing counts as moved.
    expect(accepted).toMatchObject({ status: 'in_doubt' });
    if (accepted.status === 'in_doubt') {
      expect(accepted.message).toContain('refused the payment');
      expect(accepted.purchase).toMatchObject({ movedUnits: null, amount: '10000' });
    }
    expect(lastAuthorization()['to']).toBe('0x2222222222222222222222222222222222222222');
    proxy.mutate = null;
    const again = await t.desk.handlers['quote.get']({ handle, selection: one(1) });
    expect(again).toMatchObject({ payToStatus: 'pinned', payTo: stack.payTo });
  });

  it('moves the pin to the new payee once an accepted change is paid', async () => {
    // The same store and chain served at another payee: the service "moved" its receiving address.
    const newPayee = privateKeyToAccount(generatePrivateKey()).address;
    const db = openServiceDb(path.join(stack.dataDir, 'service.db'));
    const terms = {
      network: stack.network,
      chainId: stack.chainId,
      asset: stack.asset,
      payTo: newPayee,
      unitPriceUsd: stack.unitPriceUsd,
    };
    const moved = await listenService(
      {
        store: new HandleStore(db),
        terms,
        verifier: new PaymentVerifier(terms, stack.chain.clients, new NonceBook(db)),
        librarySecret: stack.librarySecret,
      },
      0,
    );
    cleanups.push(async () => {
      await moved.close();
      db.close();
    });
    const t = await newDesk();
    expect((await buy(t, 0)).status).toBe('completed');

    proxy.target = moved.baseUrl;
    const changed = await t.desk.handlers['quote.get']({ handle, selection: one(1) });
    expect(changed).toMatchObject({ payToStatus: 'changed', payTo: newPayee });
    const before = { payer: await balanceOf(stack, t.payer), payee: await balanceOf(stack, newPayee) };
    const paid = await t.desk.handlers['purchase.start']({
      quoteId: changed.quoteId,
      confirmedAmount: changed.amount,
      acceptPayToChange: true,
    });
    expect(paid.status).toBe('completed');
    expect(await balanceOf(stack, t.payer)).toBe(before.payer - 10_000n);
    expect(await balanceOf(stack, newPayee)).toBe(before.payee + 10_000n);

    // The new payee is the pin now: it is paid without asking, and the old one counts as a change.
    const next = await t.desk.handlers['quote.get']({ handle, selection: one(2) });
    expect(next).toMatchObject({ payToStatus: 'pinned', payTo: newPayee });
    proxy.target = stack.baseUrl;
    const back = await t.desk.handlers['quote.get']({ handle, selection: one(2) });
    expect(back).toMatchObject({ payToStatus: 'changed', payTo: stack.payTo });
    expect(
      await refusalOf(
        t.desk.handlers['purchase.start']({ quoteId: back.quoteId, confirmedAmount: back.amount }),
      ),
    ).toBe('payee_changed');
  });
});

describe('rule 4: fresh nonces and a dated validity of at most 300 s', () => {
  it('caps validBefore at 300 s even when the service offers more, with a new 32-byte nonce each time', async () => {
    const t = await newDesk();
    proxy.mutate = editChallenge({ maxTimeoutSeconds: 86_400 });
    const nonces: string[] = [];
    for (const index of [2, 3]) {
      const started = Math.floor(t.clock.now / 1000);
      // The proxy stands for a service offering a day: it passes the payment on with the terms the reference
      // service offered, which settles a window of at most its own 300 s (plus its margin).
      expect((await buy(t, index)).status).toBe('completed');
      const auth = lastAuthorization();
      expect(Number(auth['validBefore']) - started).toBeLessThanOrEqual(300);
      expect(auth['nonce']).toMatch(/^0x[0-9a-f]{64}$/);
      nonces.push(auth['nonce']!);
    }
    expect(new Set(nonces).size).toBe(2);
  });

  it('dates validAfter a minute before the earliest clock, so a chain a little behind still settles it', async () => {
    const t = await newDesk();
    // Half a minute behind the service and the chain: the desk's own clock is the earliest one.
    t.clock.now = Date.now() - 30_000;
    const desk = Math.floor(t.clock.now / 1000);
    expect((await buy(t, 4)).status).toBe('completed');
    const auth = lastAuthorization();
    expect(Number(auth['validAfter'])).toBe(desk - VALID_AFTER_LEAD_SECONDS);
    expect(Number(auth['validBefore'])).toBe(desk + 300);
    const [row] = ledgerRows(t.dir);
    expect(row).toMatchObject({ state: 'completed', valid_before: desk + 300, nonce: auth['nonce'] });
  });
});

describe('rule 2 and 5 between quote and payment', () => {
  it('re-prices a stale quote from a new challenge, pays it when unchanged, and refuses when anything changed', async () => {
    const t = await newDesk();
    let challenges = 0;
    const counting =
      (mutation: ((c: Record<string, unknown>) => unknown) | null) => (c: Record<string, unknown>) => {
        challenges++;
        return mutation ? mutation(c) : c;
      };
    proxy.mutate = counting(null);
    const unchanged = await t.desk.handlers['quote.get']({ handle, selection: one(7) });
    const quote = await t.desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(4, 6) },
    });
    t.clock.now += 61_000;
    const asked = challenges;
    const before = await balanceOf(stack, t.payer);
    const paid = await t.desk.handlers['purchase.start']({
      quoteId: unchanged.quoteId,
      confirmedAmount: unchanged.amount,
    });
    expect(paid.status).toBe('completed');
    expect(challenges).toBe(asked + 1);
    expect(await balanceOf(stack, t.payer)).toBe(before - BigInt(unchanged.amount));

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
      proxy.mutate = counting(mutation);
      const asked = challenges;
      const before = { signatures: t.signatures(), payments: proxy.paymentsSeen.length };
      const refusal = await refusalOf(
        t.desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      );
      expect(refusal).toBe(code);
      expect(challenges).toBe(asked + 1);
      expect(t.signatures()).toBe(before.signatures);
      expect(proxy.paymentsSeen.length).toBe(before.payments);
    }
  });
});

describe('the payment is built from the latest challenge', () => {
  it('honours a validity window the service shortened after the quote', async () => {
    const t = await newDesk();
    // The quote is dated 61 s ago, so the purchase asks for a new challenge.
    const now = t.clock.now;
    t.clock.now = now - 61_000;
    const quote = await t.desk.handlers['quote.get']({ handle, selection: one(8) });
    t.clock.now = now;
    proxy.mutate = editChallenge({ maxTimeoutSeconds: 30 });
    const outcome = await t.desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('completed');
    const payload = JSON.parse(Buffer.from(proxy.paymentsSeen.at(-1)!, 'base64').toString('utf8'));
    const validBefore = Number(payload.payload.authorization.validBefore);
    expect(validBefore - Math.floor(now / 1000)).toBeLessThanOrEqual(30);
    expect(payload.accepted.maxTimeoutSeconds).toBe(30);
  });
});

describe('payment headers', () => {
  it('sends one request with the same payment in all three headers; a service reading only one is paid once', async () => {
    for (const only of ['payment-signature', 'x-402-payment', 'x-payment']) {
      const t = await newDesk();
      proxy.onlyPaymentHeader = only;
      try {
        const before = { requests: proxy.paidRequests.length, balance: await balanceOf(stack, t.payer) };
        const outcome = await buy(t, 6);
        expect(outcome.status).toBe('completed');
        expect(t.signatures()).toBe(1);
        const sent = proxy.paidRequests.slice(before.requests);
        expect(sent).toHaveLength(1);
        const values = Object.values(sent[0]!);
        expect(Object.keys(sent[0]!).sort()).toEqual(['payment-signature', 'x-402-payment', 'x-payment']);
        expect(new Set(values).size).toBe(1);
        expect(await balanceOf(stack, t.payer)).toBe(before.balance - 10_000n);
      } finally {
        proxy.onlyPaymentHeader = null;
      }
    }
  });
});
