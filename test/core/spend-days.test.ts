/**
 * Spend by local day and month, at the boundaries, in a zone far from UTC: Auckland's midnight is 11:00 or
 * 12:00 UTC, so a day or month taken in UTC (or SQLite's own clock) puts purchases on the wrong side. The
 * rows are written by the real ledger into a real desk.db; the totals are read through the RPC handler with
 * the desk's injectable clock.
 */
process.env['TZ'] = 'Pacific/Auckland';

import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createDeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { PurchaseLedger } from '../../src/core/ledger/purchases';
import type { PurchaseState } from '../../src/shared/rpc';
import { closedPortUrl } from '../closed-port';
import { tempDir } from './helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Local wall-clock time in the zone set above. */
const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) =>
  new Date(y, m - 1, d, h, min, s, ms);

interface Row {
  usd: number;
  at: Date;
  state: PurchaseState;
  handle?: string;
}

/** Writes purchases as the purchaser does (signed, then moved on), then closes the file. */
function writeLedger(dataDir: string, serviceUrl: string, rows: Row[]): void {
  const { db } = openDeskDb(path.join(dataDir, 'desk.db'));
  const ledger = new PurchaseLedger(db, () => new Date());
  rows.forEach((row, i) => {
    const id = `purchase-${i}`;
    ledger.insertSigned({
      id,
      serviceUrl,
      handle: row.handle ?? 'Alice',
      resource: '/api/intel/reports/purchase?username=Alice',
      reportCount: 1,
      amount: BigInt(Math.round(row.usd * 1e6)),
      network: 'eip155:31337',
      asset: `0x${'1'.repeat(40)}`,
      payer: `0x${'2'.repeat(40)}`,
      payTo: `0x${'3'.repeat(40)}`,
      nonce: `0x${i.toString(16).padStart(64, '0')}`,
      validBefore: BigInt(Math.floor(row.at.getTime() / 1000) + 300),
      quoteJson: '{}',
      createdAt: row.at.toISOString(),
    });
    if (row.state === 'completed') ledger.complete(id, [`report-${i}`]);
    else ledger.setState(id, row.state);
  });
  // A read with the library secret is recorded and costs nothing.
  ledger.insertFree(
    {
      id: 'secret-read',
      serviceUrl,
      handle: 'Alice',
      resource: '/x',
      reportCount: 3,
      quoteJson: '{}',
      createdAt: local(2026, 12, 1, 0, 5).toISOString(),
    },
    ['a', 'b', 'c'],
  );
  db.close();
}

async function deskAt(now: Date, rows: Row[]) {
  const data = tempDir('desk-spend-days-');
  const serviceUrl = await closedPortUrl();
  writeLedger(data.dir, serviceUrl, rows);
  const desk = await createDeskCore({
    dataDir: data.dir,
    serviceUrl,
    now: () => now.getTime(),
    attempts: 1,
    walletKdfCost: 'fast-insecure-for-tests',
  });
  cleanups.push(data.remove, () => desk.close());
  return desk;
}

describe('spend by local day and month', () => {
  it('splits at local midnight and the first of the month, counts completed, leaves out failed', async () => {
    expect(local(2026, 12, 1).toISOString()).toBe('2026-11-30T11:00:00.000Z');
    const rows: Row[] = [
      { usd: 1, at: local(2026, 11, 30, 23, 59, 59, 999), state: 'completed' },
      { usd: 2, at: local(2026, 12, 1), state: 'completed', handle: 'bob' },
      { usd: 4, at: local(2026, 12, 1, 0, 10), state: 'failed' },
      { usd: 8, at: local(2026, 10, 31, 23, 59), state: 'completed', handle: 'ALICE' },
    ];
    const desk = await deskAt(local(2026, 12, 1, 0, 30), rows);
    const view = await desk.handlers['purchases.spend']({ days: 3 });
    expect(view).toMatchObject({
      todayUnits: '2000000',
      monthUnits: '2000000',
      lifetimeUnits: '11000000',
      unsettledUnits: '0',
    });
    expect(view.dayStart).toBe(local(2026, 12, 1).toISOString());
    expect(view.monthStart).toBe(local(2026, 12, 1).toISOString());
    expect(view.byDay).toEqual([
      { day: '2026-11-29', units: '0' },
      { day: '2026-11-30', units: '1000000' },
      { day: '2026-12-01', units: '2000000' },
    ]);
    // One handle whatever its case, shown as last bought; the failed purchase counted nowhere.
    expect(view.byHandle).toEqual([
      { handle: 'Alice', totalUnits: '9000000', monthUnits: '0', purchases: 3, budgetUnits: null },
      { handle: 'bob', totalUnits: '2000000', monthUnits: '2000000', purchases: 1, budgetUnits: null },
    ]);

    // At the last millisecond of November, with what had been bought by then, the day and month are its.
    const lastMoment = local(2026, 11, 30, 23, 59, 59, 999);
    const before = await deskAt(
      lastMoment,
      rows.filter((row) => row.at <= lastMoment),
    );
    const november = await before.handlers['purchases.spend']({ days: 1 });
    expect(november).toMatchObject({
      todayUnits: '1000000',
      monthUnits: '1000000',
      lifetimeUnits: '9000000',
    });
    expect(november.byDay).toEqual([{ day: '2026-11-30', units: '1000000' }]);
  });

  it('counts a purchase in doubt (or sent, unanswered) in full, and says how much is unsettled', async () => {
    const rows: Row[] = [
      { usd: 1, at: local(2026, 12, 1, 9), state: 'completed' },
      { usd: 2, at: local(2026, 12, 1, 10), state: 'in_doubt' },
    ];
    const desk = await deskAt(local(2026, 12, 1, 12), rows);
    // The in-doubt row is still in doubt after the start's reconciliation (no chain can be asked here).
    const list = await desk.handlers['purchases.list']({});
    expect(list.purchases.map((p) => p.state).sort()).toEqual(['completed', 'completed', 'in_doubt']);
    expect(await desk.handlers['purchases.spend']({ days: 1 })).toMatchObject({
      todayUnits: '3000000',
      unsettledUnits: '2000000',
      byDay: [{ day: '2026-12-01', units: '3000000' }],
    });
    expect(list.spentTodayUnits).toBe('3000000');
  });
});
