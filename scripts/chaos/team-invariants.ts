/**
 * The invariants a `--team` chaos run adds, checked against the chain's AuthorizationUsed events, the desks'
 * own SQLite ledgers and the team's rows as PostgreSQL holds them, never against what a desk says.
 */
import type { Settlement } from './chain';
import { usdc, type DeskEvidence, type Invariant } from './invariants';
import { claimsSettlement, keyOf, paidNotDelivered, paidReportIds, type LedgerRow } from './ledger';
import { liveTeamRow, teamCapBreaches, type TeamCaps, type TeamClaim, type TeamRow } from './team';

export interface TeamEvidence {
  rows: TeamRow[];
  claims: TeamClaim[];
  caps: TeamCaps;
  /** Breaches the team's rows showed during the run. */
  capBreaches: string[];
  capChecks: number;
}

function paidOnceByTeam(desks: DeskEvidence[]): Invariant {
  const violations: string[] = [];
  const seen = new Map<string, string>();
  for (const desk of desks)
    for (const row of desk.rows.filter(claimsSettlement))
      for (const id of paidReportIds(row)) {
        const earlier = seen.get(id);
        if (earlier) violations.push(`report ${id} paid in ${earlier} and in ${desk.name} ${row.id}`);
        seen.set(id, `${desk.name} ${row.id}`);
      }
  return {
    name: 'team: no report paid twice across desks',
    counts: `paid_reports=${seen.size} desks=${desks.length}`,
    violations,
  };
}

function teamCaps(team: TeamEvidence): Invariant {
  return {
    name: 'team: caps never exceeded by committed, reserved and in-doubt team rows',
    counts: `checks=${team.capChecks + 1} per_purchase=${usdc(team.caps.perPurchase)} daily=${usdc(team.caps.daily)}`,
    violations: [...new Set([...team.capBreaches, ...teamCapBreaches(team.rows, team.caps)])],
  };
}

function teamRowsMatchChain(team: TeamEvidence, desks: DeskEvidence[], settlements: Settlement[]): Invariant {
  const violations: string[] = [];
  const ledger = new Map<string, { desk: string; row: LedgerRow }>();
  for (const desk of desks) for (const row of desk.rows) ledger.set(row.id, { desk: desk.name, row });
  const rowsByKey = new Map<string, TeamRow[]>();
  for (const row of team.rows) {
    const key = `${row.payer}/${row.nonce}`;
    rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), row]);
  }
  const onChain = new Set<string>();
  for (const s of settlements) {
    const key = `${s.authorizer}/${s.nonce}`;
    onChain.add(key);
    const rows = rowsByKey.get(key) ?? [];
    if (rows.length !== 1) {
      violations.push(`authorization ${key} (tx ${s.txHash}) has ${rows.length} team rows`);
      continue;
    }
    const row = rows[0]!;
    // Paid, not delivered: the desk waits for the reports, so the team holds the row in doubt, in full.
    const local = ledger.get(row.purchaseId);
    const waiting = row.state === 'in_doubt' && local !== undefined && paidNotDelivered(local.row);
    if (row.state !== 'paid' && !waiting)
      violations.push(
        `team purchase ${row.purchaseId}: settled on chain in ${s.txHash}, team says ${row.state}`,
      );
  }
  let paid = 0;
  for (const row of team.rows) {
    if (row.state !== 'paid') continue;
    paid++;
    if (!onChain.has(`${row.payer}/${row.nonce}`))
      violations.push(
        `team purchase ${row.purchaseId} (${row.deskId}): paid, but the chain has no settlement`,
      );
  }
  // Each desk's settled ledger rows are the team's: a payment the team never reserved is a hole in the gate.
  for (const { desk, row } of ledger.values())
    if (claimsSettlement(row) && !rowsByKey.has(keyOf(row)))
      violations.push(`${desk} ${row.id}: paid without a team reservation`);
  return {
    name: 'team: rows paid <-> AuthorizationUsed one to one',
    counts: `on_chain=${settlements.length} team_paid=${paid} team_rows=${team.rows.length}`,
    violations,
  };
}

function teamExplained(team: TeamEvidence, desks: DeskEvidence[]): Invariant {
  const violations: string[] = [];
  const ledger = new Map<string, LedgerRow>();
  for (const desk of desks) for (const row of desk.rows) ledger.set(row.id, row);
  const states = new Map<string, number>();
  const live = new Map(team.rows.filter(liveTeamRow).map((row) => [row.purchaseId, row]));
  for (const row of team.rows) {
    states.set(row.state, (states.get(row.state) ?? 0) + 1);
    const local = ledger.get(row.purchaseId);
    if (row.state === 'reserved')
      violations.push(
        `team purchase ${row.purchaseId} (${row.deskId}): still reserved after every desk synced`,
      );
    if (row.state === 'in_doubt' && !(local && paidNotDelivered(local)))
      violations.push(
        `team purchase ${row.purchaseId} (${row.deskId}): in doubt, its desk's ledger says ${local?.state ?? 'nothing'}`,
      );
  }
  const held = new Set<string>();
  for (const claim of team.claims) {
    held.add(claim.purchaseId);
    if (!live.has(claim.purchaseId))
      violations.push(
        `report ${claim.reportId} claimed by ${claim.purchaseId}, which is not a live team purchase`,
      );
  }
  for (const row of live.values())
    if (!held.has(row.purchaseId))
      violations.push(`team purchase ${row.purchaseId}: ${row.state} with no claim`);
  return {
    name: 'team: every team purchase explained after sync, claims held by live rows only',
    counts: `${[...states].map(([state, n]) => `${state}=${n}`).join(' ') || 'rows=0'} claims=${team.claims.length}`,
    violations,
  };
}

export function checkTeamInvariants(
  team: TeamEvidence,
  desks: DeskEvidence[],
  settlements: Settlement[],
): Invariant[] {
  return [
    paidOnceByTeam(desks),
    teamCaps(team),
    teamRowsMatchChain(team, desks, settlements),
    teamExplained(team, desks),
  ];
}
