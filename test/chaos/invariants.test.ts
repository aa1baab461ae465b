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
import type { TeamRow } from '../../scripts/chaos/team';
import { checkTeamInvariants, type TeamEvidence } from '../../scripts/chaos/team-invariants';

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

/** Three team desks' evidence that agrees: desk-a paid r1 (p1), and the team's row and claim say so. */
function teamCase() {
  const e = evidence([row()], 10_000n, true);
  const desks = [e.desks[0]!, { ...e.desks[0]!, name: 'desk-b', rows: [] as LedgerRow[] }];
  const team: TeamEvidence = {
    rows: [teamRow()],
    claims: [{ reportId: 'r1', purchaseId: 'p1' }],
    caps: { perPurchase: 40_000n, daily: 100_000n },
    capBreaches: [],
    capChecks: 1,
  };
  return { desks, team, settlements: e.settlements };
}

function teamRow(overrides: Partial<TeamRow> = {}): TeamRow {
  return {
    purchaseId: 'p1',
    deskId: 'desk-a-1',
    payer,
    nonce,
    amount: 10_000n,
    state: 'paid',
    day: '2026-11-28',
    ...overrides,
  };
}

const teamViolated = (c: ReturnType<typeof teamCase>) =>
  checkTeamInvariants(c.team, c.desks, c.settlements)
    .filter((inv) => inv.violations.length > 0)
    .map((inv) => inv.name);

const PAID_TWICE = 'team: no report paid twice across desks';
const TEAM_CAPS = 'team: caps never exceeded by committed, reserved and in-doubt team rows';
const ONE_TO_ONE = 'team: rows paid <-> AuthorizationUsed one to one';
const EXPLAINED = 'team: every team purchase explained after sync, claims held by live rows only';

describe('chaos team invariants', () => {
  it('pass when the desks, the team database and the chain agree', () => {
    expect(teamViolated(teamCase())).toEqual([]);
  });

  it('catch a report paid by two desks of the team', () => {
    const c = teamCase();
    const other = `0x${'44'.repeat(32)}`;
    c.desks[1]!.rows = [row({ id: 'p2', nonce: other })];
    c.settlements.push({ authorizer: payer, nonce: other, txHash: tx, moved: 10_000n, transfers: 1 });
    c.team.rows.push(teamRow({ purchaseId: 'p2', nonce: other, deskId: 'desk-b-1' }));
    c.team.claims.push({ reportId: 'r1', purchaseId: 'p2' });
    expect(teamViolated(c)).toEqual([PAID_TWICE]);
  });

  it('catch a team purchase over the per-purchase cap, a day over the daily cap, and a breach seen mid-run', () => {
    const over = teamCase();
    over.team.rows = [teamRow({ amount: 50_000n })];
    expect(teamViolated(over)).toContain(TEAM_CAPS);
    // Money in doubt counts in full: the paid row and a row in doubt together pass the daily cap.
    const day = teamCase();
    day.team.rows.push(
      teamRow({ purchaseId: 'p2', nonce: `0x${'55'.repeat(32)}`, amount: 35_000n, state: 'in_doubt' }),
      teamRow({ purchaseId: 'p3', nonce: `0x${'66'.repeat(32)}`, amount: 35_000n, state: 'reserved' }),
      teamRow({ purchaseId: 'p4', nonce: `0x${'77'.repeat(32)}`, amount: 35_000n, state: 'reserved' }),
    );
    const caps = checkTeamInvariants(day.team, day.desks, day.settlements).find((i) => i.name === TEAM_CAPS);
    expect(caps?.violations).toEqual(['team: 0.115000 USDC committed or in doubt on 2026-11-28']);
    // Failed rows do not count: the same day without them passes.
    day.team.rows = day.team.rows.map((r) =>
      r.purchaseId === 'p1' ? r : { ...r, state: 'failed' as const },
    );
    expect(teamViolated(day)).not.toContain(TEAM_CAPS);
    const seen = teamCase();
    seen.team.capBreaches.push(
      'team: 0.120000 USDC committed or in doubt on 2026-11-28 (after desk-a purchase 3)',
    );
    expect(teamViolated(seen)).toEqual([TEAM_CAPS]);
  });

  it('catch a settlement the team calls failed, and one with no team row', () => {
    const failed = teamCase();
    failed.team.rows = [teamRow({ state: 'failed' })];
    failed.team.claims = [];
    expect(teamViolated(failed)).toEqual([ONE_TO_ONE]);
    const none = teamCase();
    none.team.rows = [];
    none.team.claims = [];
    const names = checkTeamInvariants(none.team, none.desks, none.settlements).find(
      (i) => i.name === ONE_TO_ONE,
    );
    expect(names?.violations).toEqual([
      `authorization ${payer}/${nonce} (tx ${tx}) has 0 team rows`,
      'desk-a p1: paid without a team reservation',
    ]);
  });

  it('catch a team row paid that the chain never settled', () => {
    const c = teamCase();
    c.settlements = [];
    expect(teamViolated(c)).toEqual([ONE_TO_ONE]);
  });

  it('accept a paid-not-delivered purchase held in doubt by the team, and no other row in doubt', () => {
    const waiting = teamCase();
    waiting.desks[0]!.rows = [
      row({ state: 'in_doubt', waiting_json: '{"kind":"redelivery"}', report_ids: '[]' }),
    ];
    waiting.team.rows = [teamRow({ state: 'in_doubt' })];
    expect(teamViolated(waiting)).toEqual([]);
    const expiring = teamCase();
    expiring.desks[0]!.rows = [row({ state: 'in_doubt', waiting_json: '{"kind":"expiry"}' })];
    expiring.team.rows = [teamRow({ state: 'in_doubt' })];
    expect(teamViolated(expiring)).toEqual([ONE_TO_ONE, EXPLAINED]);
  });

  it('catch a team purchase left reserved, and a claim held by a failed purchase', () => {
    const c = teamCase();
    c.team.rows.push(
      teamRow({ purchaseId: 'p2', nonce: `0x${'88'.repeat(32)}`, state: 'reserved' }),
      teamRow({ purchaseId: 'p3', nonce: `0x${'99'.repeat(32)}`, state: 'failed' }),
    );
    c.team.claims.push({ reportId: 'r2', purchaseId: 'p2' }, { reportId: 'r3', purchaseId: 'p3' });
    const explained = checkTeamInvariants(c.team, c.desks, c.settlements).find((i) => i.name === EXPLAINED);
    expect(explained?.violations).toEqual([
      'team purchase p2 (desk-a-1): still reserved after every desk synced',
      'report r3 claimed by p3, which is not a live team purchase',
    ]);
    expect(teamViolated(c)).toEqual([EXPLAINED]);
  });
});
