/**
 * One desk of a chaos run as the driver drives it: a purchase under the fault drawn for it, a restart after
 * a kill, reconciliation, the team's sync, and the settling at the end that leaves nothing in doubt.
 */
import path from 'node:path';
import { z } from 'zod';
import type { DemoChain } from '../../src/service/chain/demo-chain';
import type { Selection } from '../../src/shared/rpc';
import { advancePast, catchUp, idleFor } from './chain';
import type { ChainProxy } from './chain-proxy';
import type { CommandResult, DeskProcess } from './desk-process';
import { drawFault, type Fault, type FaultTally } from './faults';
import type { DeskEvidence } from './invariants';
import { readDesk, waitKind } from './ledger';
import type { PgFaultProxy } from './pg-fault-proxy';
import type { Prng } from './prng';
import { integrityCheck } from './service-process';
import type { ServiceProxy } from './service-proxy';
import type { ChaosTeam } from './team';

export interface Lane {
  name: string;
  dataDir: string;
  desk: DeskProcess;
  proxy: ServiceProxy;
  chainProxy: ChainProxy;
  prng: Prng;
  buyerKeys: `0x${string}`[];
  buyer: number;
  evidence: Omit<DeskEvidence, 'rows' | 'snapshots' | 'delivered'>;
  /** Team runs: this desk's route to the team database. */
  pg: PgFaultProxy | null;
}

function choose(prng: Prng, menus: Map<string, string[]>): { handle: string; selection: Selection } {
  const handle = prng.pick([...menus.keys()]);
  const ids = menus.get(handle) ?? [];
  // Mostly a few reports; sometimes the whole handle, which the per-purchase cap often refuses.
  if (prng.next() < 0.1 || ids.length === 0) return { handle, selection: { kind: 'all' } };
  return { handle, selection: { kind: 'ids', ids: prng.sample(ids, prng.int(1, 3)) } };
}

export function expectOk(result: CommandResult, what: string): unknown {
  if (result.kind !== 'ok') throw new Error(`${what} failed: ${JSON.stringify(result)}`);
  return result.result;
}

export async function onePurchase(
  lane: Lane,
  chain: DemoChain,
  menus: Map<string, string[]>,
  faults: FaultTally,
  count: (label: string) => void,
  shared: boolean,
  team: ChaosTeam | null,
): Promise<number> {
  const fault: Fault = drawFault(lane.prng, team !== null);
  faults.add(fault.kind);
  // Processes on one folder share its wallet: only a desk of its own switches buyers.
  if (!shared && lane.prng.next() < 0.05) {
    lane.buyer = (lane.buyer + 1) % lane.buyerKeys.length;
    expectOk(await lane.desk.send({ op: 'useBuyer', key: lane.buyerKeys[lane.buyer]! }), 'switching buyer');
  }
  const { handle, selection } = choose(lane.prng, menus);
  switch (fault.kind) {
    case 'refused':
      lane.proxy.armRefusal();
      break;
    case 'reset':
    case 'answer_dropped':
    case 'answer_delayed':
    case 'gateway_502':
    case 'gateway_504':
    case 'rate_limited_429':
    case 'paid_twice':
    case 'paid_twice_second_answer':
      lane.proxy.arm(fault.kind);
      break;
    case 'service_kill':
      lane.proxy.arm('service_kill', fault.killAfterMs ?? 0);
      break;
    case 'chain_stall':
      lane.chainProxy.mode = 'stall';
      break;
    case 'chain_error':
      lane.chainProxy.mode = 'error';
      break;
    case 'chain_idle':
      await idleFor(chain, fault.idleSeconds ?? 300);
      break;
    default:
      break;
  }
  const endTeamFault = team && lane.pg ? team.arm(fault, lane.pg) : async () => undefined;
  const skewMs = fault.skewMs ?? 0;
  const buy = (choice: { handle: string; selection: Selection }) =>
    lane.desk.send({ op: 'buy', ...choice, skewMs, killAt: fault.killAt ?? null });
  const results = await Promise.all(
    fault.kind === 'concurrent_purchases'
      ? [buy({ handle, selection }), buy(choose(lane.prng, menus))]
      : [buy({ handle, selection })],
  );
  for (const result of results) {
    if (result.kind === 'killed') count('killed');
    else if (result.kind === 'refused') {
      count(`refused:${result.code}`);
      if (process.env['CHAOS_DEBUG']) process.stderr.write(`${lane.name} ${fault.kind}: ${result.message}\n`);
    } else {
      const outcome = z.object({ status: z.string(), code: z.string().nullable() }).parse(result.result);
      count(outcome.code ? `${outcome.status}:${outcome.code}` : outcome.status);
    }
  }
  if (results.some((result) => result.kind === 'killed')) await restart(lane);
  // The purchase's end reaches the team in the background: a sync waits for it, so a cut meant for it
  // strikes it and not a later purchase's.
  if (fault.kind === 'pg_cut_after_reservation') await teamSync(lane);
  await endTeamFault();
  // The idle spell ends: a block on the wall clock again, as the next transaction or interval would make.
  if (fault.kind === 'chain_idle') await catchUp(chain);
  // A chain that fails while reconciling: the desk asks it again under the same fault.
  if (fault.kind === 'chain_stall' || fault.kind === 'chain_error') await reconcile(lane, skewMs);
  lane.chainProxy.mode = 'pass';
  await lane.proxy.reset();
  return results.length;
}

async function restart(lane: Lane): Promise<void> {
  await lane.desk.gone();
  lane.evidence.kills++;
  const verdict = integrityCheck(path.join(lane.dataDir, 'desk.db'));
  if (verdict !== 'ok') lane.evidence.damaged.push(verdict);
  await lane.proxy.reset();
  lane.chainProxy.mode = 'pass';
  await lane.desk.start();
}

export async function reconcile(lane: Lane, skewMs: number): Promise<void> {
  const result = await lane.desk.send({ op: 'reconcile', skewMs });
  if (result.kind === 'killed') await restart(lane);
}

/** Reconciles until only paid-not-delivered purchases stay open, moving chain time past their windows. */
export async function settleAll(lane: Lane, chain: DemoChain, log: (line: string) => void): Promise<void> {
  lane.chainProxy.mode = 'pass';
  await lane.proxy.reset();
  for (let round = 0; round < 6; round++) {
    await reconcile(lane, 0);
    const open = readDesk(lane.dataDir).rows.filter(
      (row) => (row.state === 'in_doubt' && waitKind(row) !== 'redelivery') || row.state === 'sent',
    );
    if (open.length === 0) return;
    const latest = Math.max(...open.map((row) => row.valid_before));
    log(
      `${lane.name}: ${open.length} in doubt; moving chain time past ${new Date(latest * 1000).toISOString()}`,
    );
    await advancePast(chain, latest);
  }
}

/** `team sync` on one desk; the team out of reach (a fault still on) is the next sync's to catch up. */
export async function teamSync(lane: Lane): Promise<void> {
  const result = await lane.desk.send({ op: 'teamSync' });
  if (result.kind === 'killed') await restart(lane);
  else if (result.kind === 'refused' && process.env['CHAOS_DEBUG'])
    process.stderr.write(`${lane.name} team sync: ${result.message}\n`);
}

/**
 * After the desks reconciled (settleAll): each desk tells the team how its purchases ended, publishes their
 * reports and pulls the others', until no team purchase is left reserved. A desk whose purchase the team
 * still holds reconciles again first.
 */
export async function settleTeam(lanes: Lane[], team: ChaosTeam, log: (line: string) => void): Promise<void> {
  await team.settled();
  for (const lane of lanes) lane.pg?.resume();
  for (let round = 0; round < 4; round++) {
    for (const lane of lanes) await teamSync(lane);
    const open = (await team.rows()).filter((row) => row.state === 'reserved');
    if (open.length === 0) return;
    log(`team: ${open.length} purchases still reserved; reconciling and syncing again`);
    for (const lane of lanes) await reconcile(lane, 0);
  }
}
