/**
 * The invariants a chaos run must keep, each checked against the chain itself (balances and the demo token's
 * events) and the desks' own SQLite files, never against what core says about itself.
 */
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { z } from 'zod';
import type { Settlement } from './chain';
import {
  claimsSettlement,
  committedOn,
  keyOf,
  LIBRARY_SECRET_NETWORK,
  paidNotDelivered,
  paidReportIds,
  type LedgerRow,
  type SnapshotRow,
} from './ledger';
import type { Replay } from './service-proxy';

export interface Invariant {
  name: string;
  /** What was checked, in numbers. */
  counts: string;
  violations: string[];
}

export interface DeskEvidence {
  name: string;
  rows: LedgerRow[];
  snapshots: SnapshotRow[];
  /** Paid answers the proxy passed on to this desk unchanged, by payer/nonce. */
  delivered: ReadonlyMap<string, string>;
  kills: number;
  /** integrity_check verdicts after kills that were not "ok". */
  damaged: string[];
  /** Cap breaches seen in the ledger after a purchase, during the run. */
  capBreaches: string[];
  capChecks: number;
}

export interface Evidence {
  desks: DeskEvidence[];
  buyers: { address: string; before: bigint; after: bigint }[];
  settlements: Settlement[];
  caps: { perPurchase: bigint; daily: bigint };
  service: { kills: number; damaged: string[]; replays: Replay[]; storeFile: string };
}

export const usdc = (units: bigint) =>
  `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, '0')}`;

function balances(e: Evidence): Invariant {
  const violations: string[] = [];
  const rows = e.desks.flatMap((desk) => desk.rows);
  for (const buyer of e.buyers) {
    const lost = buyer.before - buyer.after;
    const recorded = rows
      .filter((row) => row.payer.toLowerCase() === buyer.address.toLowerCase() && claimsSettlement(row))
      .reduce((sum, row) => sum + BigInt(row.amount), 0n);
    if (lost !== recorded)
      violations.push(`${buyer.address} lost ${usdc(lost)} USDC on chain, ledgers say ${usdc(recorded)}`);
  }
  const total = e.buyers.reduce((sum, b) => sum + b.before - b.after, 0n);
  return {
    name: 'ledger settled sum == balance lost, per buyer',
    counts: `buyers=${e.buyers.length} moved=${usdc(total)} USDC`,
    violations,
  };
}

function authorizations(e: Evidence): Invariant {
  const violations: string[] = [];
  const rowsByKey = new Map<string, { desk: string; row: LedgerRow }[]>();
  for (const desk of e.desks)
    for (const row of desk.rows) {
      if (row.network === LIBRARY_SECRET_NETWORK) continue;
      const list = rowsByKey.get(keyOf(row)) ?? [];
      list.push({ desk: desk.name, row });
      rowsByKey.set(keyOf(row), list);
    }
  const onChain = new Map<string, Settlement>();
  for (const s of e.settlements) {
    const key = `${s.authorizer}/${s.nonce}`;
    if (onChain.has(key)) violations.push(`authorization ${key} settled twice on chain`);
    onChain.set(key, s);
    const rows = rowsByKey.get(key) ?? [];
    if (rows.length !== 1) {
      violations.push(`authorization ${key} (tx ${s.txHash}) has ${rows.length} ledger rows`);
      continue;
    }
    const { desk, row } = rows[0]!;
    if (!claimsSettlement(row))
      violations.push(
        `${desk} ${row.id}: settled on chain in ${s.txHash} but the ledger says ${row.state}: ${row.error ?? ''}`,
      );
    if (s.transfers !== 1 || s.moved !== BigInt(row.amount))
      violations.push(
        `${desk} ${row.id}: ${usdc(s.moved)} moved in ${s.transfers} transfers, ledger ${row.amount}`,
      );
  }
  let claims = 0;
  for (const [key, rows] of rowsByKey)
    for (const { desk, row } of rows) {
      if (!claimsSettlement(row)) continue;
      claims++;
      if (!onChain.has(key))
        violations.push(`${desk} ${row.id}: ${row.state} but the chain has no settlement`);
    }
  return {
    name: 'AuthorizationUsed <-> exactly one ledger row',
    counts: `on_chain=${e.settlements.length} ledger_claims=${claims}`,
    violations,
  };
}

function paidOnce(e: Evidence): Invariant {
  const violations: string[] = [];
  let reports = 0;
  for (const desk of e.desks) {
    const seen = new Map<string, string>();
    for (const row of desk.rows.filter(claimsSettlement)) {
      for (const id of paidReportIds(row)) {
        reports++;
        const earlier = seen.get(id);
        if (earlier) violations.push(`${desk.name}: report ${id} paid in ${earlier} and ${row.id}`);
        seen.set(id, row.id);
      }
    }
  }
  return { name: 'no report paid twice by one desk', counts: `paid_reports=${reports}`, violations };
}

const paidBody = z.object({ reports: z.array(z.object({ id: z.string() }).loose()) });

function delivered(e: Evidence): Invariant {
  const violations: string[] = [];
  let completed = 0;
  let notDelivered = 0;
  const receipts = new Map(e.settlements.map((s) => [`${s.authorizer}/${s.nonce}`, s.txHash]));
  for (const desk of e.desks) {
    const library = new Map(desk.snapshots.map((s) => [s.id, s]));
    for (const row of desk.rows.filter(claimsSettlement)) {
      if (paidNotDelivered(row)) {
        notDelivered++;
        const receipt = receipts.get(keyOf(row));
        if (!row.tx_hash || row.tx_hash.toLowerCase() !== receipt?.toLowerCase())
          violations.push(
            `${desk.name} ${row.id}: paid, not delivered, receipt ${row.tx_hash} (chain ${receipt})`,
          );
        continue;
      }
      completed++;
      const text = desk.delivered.get(keyOf(row));
      if (text === undefined) {
        violations.push(`${desk.name} ${row.id}: completed, but no paid answer was delivered to this desk`);
        continue;
      }
      if (row.response_json !== null && row.response_json !== text)
        violations.push(`${desk.name} ${row.id}: the kept answer differs from the delivered one`);
      for (const report of paidBody.parse(JSON.parse(text)).reports) {
        const stored = library.get(report.id);
        if (!stored) violations.push(`${desk.name} ${row.id}: report ${report.id} missing from the library`);
        else if (!text.includes(stored.raw_json) || !isDeepStrictEqual(JSON.parse(stored.raw_json), report))
          violations.push(`${desk.name} ${row.id}: report ${report.id} is not byte for byte as delivered`);
      }
    }
  }
  return {
    name: 'paid reports in the library as delivered, or paid-not-delivered with receipt',
    counts: `completed=${completed} paid_not_delivered=${notDelivered}`,
    violations,
  };
}

function caps(e: Evidence): Invariant {
  const violations: string[] = [];
  let checks = 0;
  for (const desk of e.desks) {
    violations.push(...desk.capBreaches);
    checks += desk.capChecks;
    for (const row of desk.rows) {
      if (row.network === LIBRARY_SECRET_NETWORK || row.state === 'failed') continue;
      if (BigInt(row.amount) > e.caps.perPurchase)
        violations.push(`${desk.name} ${row.id}: ${usdc(BigInt(row.amount))} over the per-purchase cap`);
      const day = committedOn(desk.rows, new Date(row.created_at));
      if (day > e.caps.daily)
        violations.push(`${desk.name}: ${usdc(day)} committed on ${row.created_at.slice(0, 10)}`);
    }
  }
  return {
    name: 'caps never exceeded, in-doubt purchases counted',
    counts: `checks=${checks} per_purchase=${usdc(e.caps.perPurchase)} daily=${usdc(e.caps.daily)}`,
    violations: [...new Set(violations)],
  };
}

function nothingInDoubt(e: Evidence): Invariant {
  const violations: string[] = [];
  const states = new Map<string, number>();
  for (const desk of e.desks)
    for (const row of desk.rows) {
      const label = paidNotDelivered(row) ? 'paid_not_delivered' : row.state;
      states.set(label, (states.get(label) ?? 0) + 1);
      if (row.state !== 'completed' && row.state !== 'failed' && !paidNotDelivered(row))
        violations.push(`${desk.name} ${row.id}: left ${row.state} (${row.waiting_json ?? 'no wait'})`);
      if (row.state === 'failed' && row.tx_hash)
        violations.push(`${desk.name} ${row.id}: failed, yet it names settlement ${row.tx_hash}`);
    }
  return {
    name: 'every purchase explained after reconciliation',
    counts: [...states].map(([state, n]) => `${state}=${n}`).join(' ') || 'purchases=0',
    violations,
  };
}

function deskIntegrity(e: Evidence): Invariant {
  return {
    name: 'desk.db integrity_check ok after every kill',
    counts: `kills=${e.desks.reduce((n, d) => n + d.kills, 0)}`,
    violations: e.desks.flatMap((desk) => desk.damaged.map((verdict) => `${desk.name}: ${verdict}`)),
  };
}

function serviceInvariant(e: Evidence): Invariant {
  const violations = e.service.damaged.map((verdict) => `service.db after a kill: ${verdict}`);
  const replays = e.service.replays.filter((r) => r.first === 200);
  for (const replay of replays) {
    // With a payment id, the identical payment gets the kept answer (decision 0022); without, 409.
    if (replay.withId === true) {
      if (replay.second !== 200 || replay.sameBody !== true)
        violations.push(`a reused payment with an id was answered ${replay.second}, not its kept answer`);
    } else if (replay.second !== 409 || replay.code !== 'payment_already_used')
      violations.push(`a reused payment was answered ${replay.second} ${replay.code ?? ''}`);
  }
  const db = new Database(e.service.storeFile, { readonly: true, fileMustExist: true });
  let settledRows = 0;
  try {
    const rows = db
      .prepare(`SELECT authorizer, nonce, tx_hash FROM payment_nonces WHERE state = 'settled'`)
      .all() as { authorizer: string; nonce: string; tx_hash: string | null }[];
    settledRows = rows.length;
    const onChain = new Map(e.settlements.map((s) => [`${s.authorizer}/${s.nonce}`, s.txHash.toLowerCase()]));
    for (const row of rows) {
      const tx = onChain.get(`${row.authorizer}/${row.nonce}`);
      if (tx === undefined || tx !== row.tx_hash?.toLowerCase())
        violations.push(
          `service says ${row.authorizer}/${row.nonce} settled in ${row.tx_hash}; chain: ${tx}`,
        );
    }
  } finally {
    db.close();
  }
  return {
    name: 'service: one settlement per authorization, 409 or the kept answer on reuse, store intact after SIGKILL',
    counts: `settled=${settledRows} reuses=${replays.length} kills=${e.service.kills}`,
    violations,
  };
}

export function checkInvariants(e: Evidence): Invariant[] {
  return [
    balances(e),
    authorizations(e),
    paidOnce(e),
    delivered(e),
    caps(e),
    nothingInDoubt(e),
    deskIntegrity(e),
    serviceInvariant(e),
  ];
}
