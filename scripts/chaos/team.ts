/**
 * The team side of a `--team` chaos run: a throwaway PostgreSQL cluster for one team (a desk creates it, as
 * its admin would with `team create`), a login role per desk, a fault proxy in front of the cluster for each desk, the Postgres faults drawn for a
 * purchase made to happen, and the team's rows read straight from the database (as the cluster's superuser,
 * never through a desk) for the invariants.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { startCluster, type PgCluster } from '../pg-cluster';
import type { Fault } from './faults';
import { usdc } from './invariants';
import { startPgFaultProxy, type PgFaultProxy } from './pg-fault-proxy';

const DATABASE = 'chaos_team';

export interface TeamCaps {
  perPurchase: bigint;
  daily: bigint;
}

export interface TeamRow {
  purchaseId: string;
  deskId: string;
  payer: string;
  nonce: string;
  amount: bigint;
  state: 'reserved' | 'paid' | 'failed' | 'in_doubt';
  day: string;
}

export interface TeamClaim {
  reportId: string;
  purchaseId: string;
}

const rowSchema = z.object({
  purchase_id: z.string(),
  desk_id: z.string(),
  payer: z.string(),
  nonce: z.string(),
  amount: z.string().regex(/^\d+$/),
  state: z.enum(['reserved', 'paid', 'failed', 'in_doubt']),
  day: z.string(),
});
const claimSchema = z.object({ report_id: z.string(), purchase_id: z.string() });

export class ChaosTeam {
  /** Cap breaches the team's rows showed during the run, in-doubt and reserved money counted. */
  readonly capBreaches: string[] = [];
  capChecks = 0;
  pgCrashes = 0;
  private crashing: Promise<void> = Promise.resolve();
  private readonly proxies: PgFaultProxy[] = [];

  readonly name = 'chaos';

  private constructor(
    readonly cluster: PgCluster,
    readonly caps: TeamCaps,
  ) {}

  /** Starts the cluster with an empty database for the team. */
  static async start(caps: TeamCaps): Promise<ChaosTeam> {
    const cluster = startCluster();
    try {
      await cluster.createDatabase(DATABASE);
      return new ChaosTeam(cluster, caps);
    } catch (error) {
      await cluster.stop().catch(() => undefined);
      throw error;
    }
  }

  /** The admin's URL (the cluster's superuser, straight to its socket), for `team create`. */
  get adminUrl(): string {
    return this.cluster.url(DATABASE);
  }

  /**
   * A login role for one desk, granted the team's group role, and the URL that desk joins with: through a
   * fault proxy of its own.
   */
  async member(name: string, groupRole: string): Promise<{ url: string; proxy: PgFaultProxy }> {
    const role = `chaos_${name.replace(/[^a-z0-9]/g, '_')}`;
    const password = randomBytes(12).toString('hex');
    await this.cluster.createRole(role, password);
    await this.cluster.query(DATABASE, `GRANT "${groupRole}" TO ${role}`);
    const proxy = await startPgFaultProxy(this.cluster.socketDir);
    this.proxies.push(proxy);
    const url = `postgresql://${role}:${password}@/${DATABASE}?host=${encodeURIComponent(proxy.socketDir)}`;
    return { url, proxy };
  }

  /**
   * Arms the Postgres fault drawn for one purchase on that desk's route (or on the cluster), and returns
   * what ends it once the purchase is over. Other faults pass through untouched.
   */
  arm(fault: Fault, proxy: PgFaultProxy): () => Promise<void> {
    switch (fault.kind) {
      case 'pg_down':
        proxy.down();
        return async () => proxy.up();
      case 'pg_commit_cut':
        // The reservation is one statement in its own transaction: its answer is the COMMIT's.
        proxy.cutAnswerTo('reserve_purchase');
        return async () => proxy.disarm();
      case 'pg_cut_after_reservation':
        proxy.cutAnswerTo('finish_purchase');
        return async () => proxy.disarm();
      case 'pg_stall': {
        proxy.stall();
        const resumed = new Promise<void>((resolve) =>
          setTimeout(() => {
            proxy.resume();
            resolve();
          }, fault.pgAfterMs ?? 1_000),
        );
        return () => resumed;
      }
      case 'pg_crash': {
        const crashed = this.crashAfter(fault.pgAfterMs ?? 0);
        return () => crashed;
      }
      default:
        return async () => undefined;
    }
  }

  /** One crash at a time: every desk shares the cluster. */
  private crashAfter(ms: number): Promise<void> {
    this.crashing = this.crashing.then(async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await this.cluster.crashAndRestart();
      this.pgCrashes++;
    });
    return this.crashing;
  }

  /** Waits for a crash under way to be over (the cluster up again). */
  settled(): Promise<void> {
    return this.crashing;
  }

  async rows(): Promise<TeamRow[]> {
    const result = await this.cluster.query(
      DATABASE,
      `SELECT purchase_id::text AS purchase_id, desk_id, payer, nonce, amount::text AS amount, state,
         day::text AS day FROM intel_desk.purchases ORDER BY created_at`,
    );
    return z
      .array(rowSchema)
      .parse(result.rows)
      .map((row) => ({
        purchaseId: row.purchase_id,
        deskId: row.desk_id,
        payer: row.payer.toLowerCase(),
        nonce: row.nonce.toLowerCase(),
        amount: BigInt(row.amount),
        state: row.state,
        day: row.day,
      }));
  }

  async claims(): Promise<TeamClaim[]> {
    const result = await this.cluster.query(
      DATABASE,
      'SELECT report_id, purchase_id::text AS purchase_id FROM intel_desk.claims',
    );
    return z
      .array(claimSchema)
      .parse(result.rows)
      .map((row) => ({ reportId: row.report_id, purchaseId: row.purchase_id }));
  }

  /** The team's caps against its rows now; a cluster down for a crash is checked next time. */
  async checkCaps(after: string): Promise<void> {
    const rows = await this.rows().catch(() => null);
    if (!rows) return;
    this.capChecks++;
    this.capBreaches.push(...teamCapBreaches(rows, this.caps).map((breach) => `${breach} (after ${after})`));
  }

  async stop(): Promise<void> {
    await this.crashing.catch(() => undefined);
    for (const proxy of this.proxies) await proxy.close();
    await this.cluster.stop();
  }
}

/** Rows that count against the team's caps: reserved, paid and in doubt, in full. */
export const liveTeamRow = (row: TeamRow): boolean => row.state !== 'failed';

/** Every way the rows break the team's caps: a live purchase over the per-purchase cap, a day over the daily. */
export function teamCapBreaches(rows: TeamRow[], caps: TeamCaps): string[] {
  const breaches: string[] = [];
  const byDay = new Map<string, bigint>();
  for (const row of rows.filter(liveTeamRow)) {
    if (row.amount > caps.perPurchase)
      breaches.push(`team purchase ${row.purchaseId}: ${usdc(row.amount)} USDC, over the per-purchase cap`);
    byDay.set(row.day, (byDay.get(row.day) ?? 0n) + row.amount);
  }
  for (const [day, total] of byDay)
    if (total > caps.daily) breaches.push(`team: ${usdc(total)} USDC committed or in doubt on ${day}`);
  return breaches;
}
