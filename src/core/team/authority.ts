/**
 * The team's authority as a desk sees it: calls to the SQL functions of schema.ts over a small pool, each in
 * its own short transaction, and the team's rows the member may read. Everything a function answers is
 * checked with zod before the desk acts on it.
 */
import pg from 'pg';
import { z } from 'zod';
import { DeskError, refused } from '../base/errors';

import { schemaVersion } from './admin';
import { teamClientConfig, teamError, type TeamConnectOptions } from './connection';
import { TEAM_SCHEMA_VERSION } from './schema';
import {
  claimOf,
  grantedSchema,
  reservationRefusal,
  reserveQuery,
  type TeamClaim,
  type TeamReservation,
} from './reservation';

export interface PulledReport {
  seq: number;
  serviceUrl: string;
  handle: string;
  reportId: string;
  raw: string;
  sha256: string;
  purchaseId: string;
  analyst: string;
  deskId: string;
  payer: string;
  txHash: string | null;
}

const pulledSchema = z.object({
  seq: z.coerce.number().int().positive(),
  service_url: z.string(),
  handle: z.string(),
  report_id: z.string(),
  raw: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  purchase_id: z.string(),
  analyst: z.string(),
  desk_id: z.string(),
  payer: z.string(),
  tx_hash: z.string().nullable(),
});

export interface TeamStatus {
  name: string;
  timeZone: string;
  dailyCap: bigint | null;
  perPurchaseCap: bigint | null;
  overCap: 'refuse' | 'consent';
  spentToday: bigint;
  inDoubt: number;
  reserved: number;
  reports: number;
  lastSeq: number;
}

const statusSchema = z.object({
  name: z.string(),
  time_zone: z.string(),
  daily_cap: z.string().nullable(),
  per_purchase_cap: z.string().nullable(),
  over_cap: z.enum(['refuse', 'consent']),
  spent_today: z.string(),
  in_doubt: z.coerce.number(),
  reserved: z.coerce.number(),
  reports: z.coerce.number(),
  last_seq: z.coerce.number(),
});

/** A purchase of the team still open past its authorization's close: the chain can tell how it ended. */
const lapsedSchema = z
  .object({
    purchase_id: z.string(),
    network: z.string(),
    asset: z.string(),
    payer: z.string(),
    nonce: z.string(),
    valid_before: z.coerce.bigint(),
    mine: z.boolean(),
  })
  // validBefore in seconds: the chain's clock, not the database's, decides it has passed.
  .transform(({ purchase_id, valid_before, ...rest }) => ({
    ...rest,
    purchaseId: purchase_id,
    validBefore: valid_before,
  }));
export type LapsedTeamPurchase = z.output<typeof lapsedSchema>;

export class TeamAuthority {
  private readonly pool: pg.Pool;
  private schemaChecked = false;

  constructor(
    private readonly connection: TeamConnectOptions,
    /** This desk's spelling of a service the team names (team/service-key.ts). */
    private readonly localServiceUrl: (teamUrl: string) => string = (teamUrl) => teamUrl,
  ) {
    this.pool = new pg.Pool({ ...teamClientConfig(connection), max: 3, idleTimeoutMillis: 10_000 });
    // A pooled connection the server drops while idle must not end the process.
    this.pool.on('error', () => undefined);
  }

  /** One call in its own transaction; a failure becomes a team code and the connection is not reused. */
  private async call<T>(
    action: string,
    work: (client: pg.PoolClient) => Promise<T>,
    /** Reservations check the schema every time: an admin may upgrade it while this desk runs. */
    everyTime = false,
  ): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw teamError(error, action);
    }
    let broken = false;
    // The pool hears errors only on idle connections: one dying while checked out would end the process.
    const died = () => {
      broken = true;
    };
    client.on('error', died);
    try {
      if (everyTime || !this.schemaChecked) await this.checkSchema(client);
      return await work(client);
    } catch (error) {
      broken = broken || !(error instanceof DeskError);
      throw teamError(error, action);
    } finally {
      client.removeListener('error', died);
      client.release(broken);
    }
  }

  /** A schema newer than this desk knows is read only here; an older one needs `team create` to upgrade. */
  private async checkSchema(client: pg.PoolClient): Promise<void> {
    const version = await schemaVersion(client);
    if (version === 0) {
      throw refused(
        'team_schema_missing',
        'This database holds no Intel Desk team; the team\'s admin runs "intel-desk team create" first.',
      );
    }
    if (version > TEAM_SCHEMA_VERSION) {
      throw refused(
        'team_schema_newer',
        `The team database has schema version ${version}, newer than this Intel Desk knows (${TEAM_SCHEMA_VERSION}): this desk reads the team's reports but buys nothing until it is updated.`,
        { version },
      );
    }
    if (version < TEAM_SCHEMA_VERSION) {
      throw refused(
        'team_schema_older',
        `The team database has schema version ${version}, older than this Intel Desk needs (${TEAM_SCHEMA_VERSION}); the team's admin runs "intel-desk team create" again to upgrade it. Nothing was signed.`,
        { version },
      );
    }
    this.schemaChecked = true;
  }

  /** Takes the team's reservation (or, with dryRun, says whether it would be granted); refusals are named. */
  async reserve(request: TeamReservation, dryRun = false): Promise<z.infer<typeof grantedSchema>> {
    const answer = await this.call('reserve', (client) => reserveQuery(client, request, dryRun), true);
    const denied = reservationRefusal(answer);
    if (denied) throw denied;
    return grantedSchema.parse(answer);
  }

  /**
   * What the team says of a choice before Buy, in one connection: who owns or is buying each of its reports
   * (the claims this member may read), and the reservation's dry run, refused or not. Nothing is held.
   */
  async look(request: TeamReservation): Promise<{ claims: TeamClaim[]; refusal: DeskError | null }> {
    const { rows, answer } = await this.call(
      'quote',
      async (client) => {
        const result = await client.query(
          `SELECT c.report_id, p.state, p.analyst, p.desk_id
           FROM intel_desk.claims c JOIN intel_desk.purchases p ON p.purchase_id = c.purchase_id
           WHERE c.service_url = $1 AND c.report_id = ANY ($2) ORDER BY c.report_id`,
          [request.serviceUrl, request.reportIds],
        );
        return { rows: result.rows as unknown[], answer: await reserveQuery(client, request, true) };
      },
      true,
    );
    const refusal = reservationRefusal(answer);
    if (!refusal) grantedSchema.parse(answer);
    return { claims: rows.map(claimOf), refusal };
  }

  async release(purchaseId: string): Promise<boolean> {
    return this.call('release', async (client) => {
      const result = await client.query<{ released: boolean }>(
        'SELECT intel_desk.release_reservation($1) AS released',
        [purchaseId],
      );
      return result.rows[0]?.released === true;
    });
  }

  async finish(
    purchaseId: string,
    outcome: 'paid' | 'failed' | 'in_doubt',
    txHash: string | null,
  ): Promise<string> {
    return this.call('finish', async (client) => {
      const result = await client.query<{ state: string }>(
        'SELECT intel_desk.finish_purchase($1, $2, $3) AS state',
        [purchaseId, outcome, txHash],
      );
      return result.rows[0]?.state ?? 'unknown';
    });
  }

  async publish(
    purchaseId: string,
    reports: { reportId: string; raw: string; sha256: string }[],
  ): Promise<number> {
    return this.call('publish', async (client) => {
      const result = await client.query<{ added: number }>(
        'SELECT intel_desk.publish_reports($1, $2) AS added',
        [purchaseId, JSON.stringify(reports)],
      );
      return Number(result.rows[0]?.added ?? 0);
    });
  }

  /** The team's reports published after `afterSeq`, oldest first (row-level security: this team's only). */
  async pull(afterSeq: number, limit: number): Promise<PulledReport[]> {
    const rows = await this.call('pull', async (client) => {
      const result = await client.query(
        `SELECT r.seq, r.service_url, r.handle, r.report_id, r.raw, r.sha256, r.purchase_id::text AS purchase_id,
           p.analyst, p.desk_id, p.payer, p.tx_hash
         FROM (SELECT * FROM intel_desk.reports WHERE seq > $1 ORDER BY seq LIMIT $2) r
           JOIN intel_desk.purchases p ON p.purchase_id = r.purchase_id
         ORDER BY r.seq`,
        [afterSeq, limit],
      );
      return result.rows;
    });
    return rows.map((row) => {
      const parsed = pulledSchema.parse(row);
      return {
        seq: parsed.seq,
        serviceUrl: this.localServiceUrl(parsed.service_url),
        handle: parsed.handle,
        reportId: parsed.report_id,
        raw: parsed.raw,
        sha256: parsed.sha256,
        purchaseId: parsed.purchase_id,
        analyst: parsed.analyst,
        deskId: parsed.desk_id,
        payer: parsed.payer,
        txHash: parsed.tx_hash,
      };
    });
  }

  async status(): Promise<TeamStatus> {
    const row = await this.call('status', async (client) => {
      const result = await client.query(
        `SELECT t.name, t.time_zone, t.daily_cap::text, t.per_purchase_cap::text, t.over_cap,
           COALESCE((SELECT sum(amount) FROM intel_desk.purchases p WHERE p.team_id = t.id
             AND p.day = (now() AT TIME ZONE t.time_zone)::date AND p.state IN ('reserved', 'paid', 'in_doubt')), 0)::text
             AS spent_today,
           (SELECT count(*) FROM intel_desk.purchases p WHERE p.team_id = t.id AND p.state = 'in_doubt') AS in_doubt,
           (SELECT count(*) FROM intel_desk.purchases p WHERE p.team_id = t.id AND p.state = 'reserved') AS reserved,
           (SELECT count(*) FROM intel_desk.reports r WHERE r.team_id = t.id) AS reports,
           COALESCE((SELECT max(seq) FROM intel_desk.reports r WHERE r.team_id = t.id), 0) AS last_seq
         FROM intel_desk.teams t WHERE t.id = intel_desk.my_team()`,
      );
      return result.rows[0] as unknown;
    });
    const parsed = statusSchema.parse(row);
    return {
      name: parsed.name,
      timeZone: parsed.time_zone,
      dailyCap: parsed.daily_cap === null ? null : BigInt(parsed.daily_cap),
      perPurchaseCap: parsed.per_purchase_cap === null ? null : BigInt(parsed.per_purchase_cap),
      overCap: parsed.over_cap,
      spentToday: BigInt(parsed.spent_today),
      inDoubt: parsed.in_doubt,
      reserved: parsed.reserved,
      reports: parsed.reports,
      lastSeq: parsed.last_seq,
    };
  }

  /** Open purchases whose authorization closed more than a minute ago (by the database's clock). */
  async lapsed(): Promise<LapsedTeamPurchase[]> {
    const rows = await this.call('status', async (client) => {
      const result = await client.query(
        `SELECT purchase_id::text AS purchase_id, network, asset, payer, nonce,
           extract(epoch FROM valid_before)::bigint::text AS valid_before, member_role = session_user AS mine
         FROM intel_desk.purchases WHERE state IN ('reserved', 'in_doubt')
           AND valid_before + interval '60 seconds' < now()`,
      );
      return result.rows;
    });
    return rows.map((row) => lapsedSchema.parse(row));
  }

  /** Tells `onReports` whenever the team publishes, until the returned stop is called. */
  async listen(onReports: () => void, onLost: (error: unknown) => void): Promise<() => Promise<void>> {
    const client = new pg.Client(teamClientConfig(this.connection));
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('the team connection ended')));
    try {
      await client.connect();
      await client.query('LISTEN intel_desk_reports');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw teamError(error, 'listen');
    }
    client.on('notification', () => onReports());
    return async () => {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
