/**
 * Money crosses the contract as base-unit strings (decision 0034): a cap of $0.0125 is kept to the unit, a
 * purchase priced exactly at it passes and one unit more is refused, the quote says the challenge's amount
 * to the digit, and a desk.db whose caps an earlier version wrote as USD numbers keeps the same caps.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { createDeskCore, type DeskCore } from '../../src/core';
import { resourcePath } from '../../src/core/client/service-client';
import { paymentChallengeSchema } from '../../src/shared/wire';
import { closedPortUrl } from '../closed-port';
import { balanceOf, deskFor, failure, PASSPHRASE, tempDir } from './helpers';
import { sameDayClock } from './clock';
import { privateKeyToAccount } from 'viem/accounts';

describe('a cap of $0.0125 against a report priced $0.0125', () => {
  let stack: Stack;
  let data: ReturnType<typeof tempDir>;
  let desk: DeskCore;
  let handle: string;

  beforeAll(async () => {
    stack = await startStack({
      seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
      buyerCount: 1,
      unitPriceUsd: 0.0125,
    });
    data = tempDir('desk-money-exact-');
    desk = await deskFor(stack, data.dir, { now: sameDayClock() });
    await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
  });
  afterAll(async () => {
    await desk?.close();
    await stack?.stop();
    data?.remove();
  });

  it("quotes the challenge's amount to the digit and holds the cap to the unit", async () => {
    const ids = (await desk.handlers['menu.get']({ handle })).reports.map((r) => r.id);
    const selection = { kind: 'ids' as const, ids: [ids[0]!] };
    const challenge = paymentChallengeSchema.parse(
      await (await fetch(`${stack.baseUrl}${resourcePath(handle, selection)}`)).json(),
    );
    expect(challenge.accepts[0]!.amount).toBe('12500');

    const settings = await desk.handlers['settings.update']({ perPurchaseCapUnits: '12500' });
    expect(settings.perPurchaseCapUnits).toBe('12500');

    const quote = await desk.handlers['quote.get']({ handle, selection });
    expect(quote).toMatchObject({
      amount: challenge.accepts[0]!.amount,
      unitPriceUnits: '12500',
      overPurchaseCap: false,
    });

    // One unit under the price: the same purchase is over the cap, and refused without consent.
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '12499' });
    const over = await desk.handlers['quote.get']({ handle, selection });
    expect(over.overPurchaseCap).toBe(true);
    const refusal = await failure(
      desk.handlers['purchase.start']({ quoteId: over.quoteId, confirmedAmount: over.amount }),
    );
    expect(refusal).toMatchObject({
      code: 'over_purchase_cap',
      details: { cap: '12499', amount: '12500' },
    });
    expect(refusal.message).toBe(
      '$0.0125 is above your per-purchase cap of $0.012499; confirm again to go over it.',
    );

    // At the cap exactly, it pays, and the ledger says what moved to the unit.
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '12500', passphrase: PASSPHRASE });
    const atCap = await desk.handlers['quote.get']({ handle, selection });
    const outcome = await desk.handlers['purchase.start']({
      quoteId: atCap.quoteId,
      confirmedAmount: atCap.amount,
    });
    expect(outcome.status).toBe('completed');
    expect(before - (await balanceOf(stack, payer))).toBe(12_500n);
    const list = await desk.handlers['purchases.list']({});
    expect(list).toMatchObject({ spentTodayUnits: '12500', perPurchaseCapUnits: '12500' });
    expect(list.purchases[0]).toMatchObject({ amount: '12500', movedUnits: '12500' });
    const library = await desk.handlers['library.list']({ handle, limit: 10 });
    expect(library.totalSpentUnits).toBe('12500');
    expect(library.items.map((item) => item.spentUnits)).toEqual(['12500']);
  });
});

describe('caps an earlier version stored as USD numbers', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function openDesk(dataDir: string, serviceUrl: string): Promise<DeskCore> {
    const core = await createDeskCore({ dataDir, serviceUrl, attempts: 1 });
    // Closed by the test to reopen the file, or at the end if it did not get that far.
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await core.close();
    };
    cleanups.push(close);
    return { ...core, close };
  }

  /** Writes settings rows as versions before base units did: a JSON number of USD per cap. */
  function writeLegacyCaps(dataDir: string, caps: Record<string, string>): void {
    const db = new Database(path.join(dataDir, 'desk.db'));
    try {
      const put = db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
      for (const [key, json] of Object.entries(caps)) put.run(key, json);
    } finally {
      db.close();
    }
  }

  it('loads them with the same caps, and writes base units from then on', async () => {
    const data = tempDir('desk-legacy-caps-');
    cleanups.push(data.remove);
    const serviceUrl = await closedPortUrl();
    const first = await openDesk(data.dir, serviceUrl);
    await first.close();
    writeLegacyCaps(data.dir, { perPurchaseCapUsd: '0.0125', dailyCapUsd: '20.29' });

    const reopened = await openDesk(data.dir, serviceUrl);
    expect(await reopened.handlers['settings.get']({})).toMatchObject({
      perPurchaseCapUnits: '12500',
      dailyCapUnits: '20290000',
    });
    expect(await reopened.handlers['purchases.list']({})).toMatchObject({
      perPurchaseCapUnits: '12500',
      dailyCapUnits: '20290000',
    });

    await reopened.handlers['settings.update']({ dailyCapUnits: '7500000' });
    await reopened.close();
    const db = new Database(path.join(data.dir, 'desk.db'), { readonly: true });
    const rows = db.prepare('SELECT key, value FROM settings WHERE key LIKE ?').all('%Cap%');
    db.close();
    // The legacy per-purchase cap stays until it is changed; the daily one is now base units alone.
    expect(rows).toEqual(
      expect.arrayContaining([
        { key: 'perPurchaseCapUsd', value: '0.0125' },
        { key: 'dailyCapUnits', value: '"7500000"' },
      ]),
    );
    expect(rows).toHaveLength(2);

    const third = await openDesk(data.dir, serviceUrl);
    expect(await third.handlers['settings.get']({})).toMatchObject({
      perPurchaseCapUnits: '12500',
      dailyCapUnits: '7500000',
    });
  });

  it('falls back to the defaults for a legacy cap that is no amount', async () => {
    const data = tempDir('desk-legacy-caps-bad-');
    cleanups.push(data.remove);
    const serviceUrl = await closedPortUrl();
    await (await openDesk(data.dir, serviceUrl)).close();
    writeLegacyCaps(data.dir, { perPurchaseCapUsd: '-3', dailyCapUsd: '"lots"' });
    const reopened = await openDesk(data.dir, serviceUrl);
    expect(await reopened.handlers['settings.get']({})).toMatchObject({
      perPurchaseCapUnits: '5000000',
      dailyCapUnits: '20000000',
    });
  });
});
