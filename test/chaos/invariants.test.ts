/**
 * The chaos run's invariants must bite: each is shown a ledger and a chain that disagree the way a defect
 * would make them, and must name the disagreement. (chaos.test.ts shows they pass on agreeing ones.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkInvariants, type Evidence } from '../../scripts/chaos/invariants';
import type { LedgerRow } from '../../scripts/chaos/ledger';

const payer = '0x00000000000000000000000000000000000000aa';
const nonce = `0x${'11'.repeat(32)}`;
const tx = `0x${'22'.repeat(32)}` as const;
const delivered = JSON.stringify({ username: 'ana', reports: [{ id: 'r1', body: 'x' }] });

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function serviceStore(settled: boolean): string {
  dir = mkdtempSync(path.join(tmpdir(), 'chaos-invariants-'));
  const file = path.join(dir, 'service.db');
  const db = new Database(file);
  db.exec(`CREATE TABLE payment_nonces (authorizer TEXT, nonce TEXT, state TEXT, amount TEXT, resource TEXT,
    tx_hash TEXT, created_at TEXT, PRIMARY KEY (authorizer, nonce))`);
  if (settled)
    db.prepare(`INSERT INTO payment_nonces VALUES (?, ?, 'settled', '10000', '/r', ?, '')`).run(
      payer,
      nonce,
      tx,
    );
  db.close();
  return file;
}

function row(overrides: Partial<LedgerRow> = {}): LedgerRow {
  return {
    id: 'p1',
    payer,
    nonce,
    amount: '10000',
    network: 'eip155:31337',
    state: 'completed',
    tx_hash: tx,
    error: null,
    response_json: delivered,
    report_ids: '["r1"]',
    quote_json: '{"expectedIds":["r1"]}',
    waiting_json: null,
    valid_before: 0,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

function evidence(rows: LedgerRow[], lost: bigint, onChain: boolean): Evidence {
  return {
    desks: [
      {
        name: 'desk-a',
        rows,
        snapshots: [{ id: 'r1', raw_json: '{"id":"r1","body":"x"}', purchase_id: 'p1' }],
        delivered: new Map([[`${payer}/${nonce}`, delivered]]),
        kills: 0,
        damaged: [],
        capBreaches: [],
        capChecks: 1,
      },
    ],
    buyers: [{ address: payer, before: 1_000_000n, after: 1_000_000n - lost }],
    settlements: onChain ? [{ authorizer: payer, nonce, txHash: tx, moved: 10_000n, transfers: 1 }] : [],
    caps: { perPurchase: 50_000n, daily: 1_000_000n },
    service: { kills: 0, damaged: [], replays: [], storeFile: serviceStore(onChain) },
  };
}

const violated = (e: Evidence) =>
  checkInvariants(e)
    .filter((inv) => inv.violations.length > 0)
    .map((inv) => inv.name);

describe('chaos invariants', () => {
  it('pass when the ledger, the library and the chain agree', () => {
    expect(violated(evidence([row()], 10_000n, true))).toEqual([]);
  });

  it('catch a settlement the ledger calls failed', () => {
    const names = violated(evidence([row({ state: 'failed', response_json: null })], 10_000n, true));
    expect(names).toContain('ledger settled sum == balance lost, per buyer');
    expect(names).toContain('AuthorizationUsed <-> exactly one ledger row');
  });

  it('catch a completed purchase the chain never settled', () => {
    const names = violated(evidence([row()], 0n, false));
    expect(names).toContain('AuthorizationUsed <-> exactly one ledger row');
    expect(names).toContain('ledger settled sum == balance lost, per buyer');
  });

  it('catch a report stored other than delivered, and one paid twice', () => {
    const e = evidence([row(), row({ id: 'p2', nonce: `0x${'33'.repeat(32)}` })], 10_000n, true);
    e.desks[0]!.snapshots = [{ id: 'r1', raw_json: '{"id":"r1","body":"y"}', purchase_id: 'p1' }];
    const names = violated(e);
    expect(names).toContain('paid reports in the library as delivered, or paid-not-delivered with receipt');
    expect(names).toContain('no report paid twice by one desk');
  });

  it('catch a purchase left in doubt and a cap exceeded', () => {
    const e = evidence(
      [row({ state: 'in_doubt', amount: '60000', waiting_json: '{"kind":"expiry"}' })],
      0n,
      false,
    );
    const names = violated(e);
    expect(names).toContain('every purchase explained after reconciliation');
    expect(names).toContain('caps never exceeded, in-doubt purchases counted');
  });

  it('catch a reused payment the service answered other than 409 payment_already_used', () => {
    const e = evidence([row()], 10_000n, true);
    e.service.replays.push({ payment: 'x', first: 200, second: 200, code: null });
    expect(violated(e)).toEqual([
      'service: one settlement per authorization, 409 or the kept answer on reuse, store intact after SIGKILL',
    ]);
  });

  it('catch a reused payment with an id answered other than with its kept answer', () => {
    const e = evidence([row()], 10_000n, true);
    e.service.replays.push({
      payment: 'x',
      first: 200,
      second: 200,
      code: null,
      withId: true,
      sameBody: true,
    });
    expect(violated(e)).toEqual([]);
    e.service.replays.push({
      payment: 'y',
      first: 200,
      second: 409,
      code: 'payment_already_used',
      withId: true,
      sameBody: false,
    });
    expect(violated(e)).toEqual([
      'service: one settlement per authorization, 409 or the kept answer on reuse, store intact after SIGKILL',
    ]);
  });
});
