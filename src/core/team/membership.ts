/**
 * Which team this desk joined, kept in desk.db (migration 18) with the database password sealed beside it as
 * the library secret is (bound to this computer's key, never sent to the window).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import { DeskError } from '../base/errors';
import type { DeskDb } from '../db/open';
import { writePrivateFile, type LocalSealer } from '../wallet/sealing';
import type { TeamConnectOptions } from './connection';
import type { TeamStatus } from './authority';

export interface Membership {
  url: string;
  teamName: string;
  deskId: string;
  analyst: string;
  joinedAt: string;
  pulledUpTo: number;
  syncedAt: string | null;
  /** The team's status when last read: what Purchases shows while the team is out of reach. */
  status: StoredTeamStatus | null;
}

const storedStatusSchema = z.object({
  name: z.string(),
  timeZone: z.string(),
  dailyCap: z.string().nullable(),
  perPurchaseCap: z.string().nullable(),
  overCap: z.enum(['refuse', 'consent']),
  spentToday: z.string(),
  inDoubt: z.number(),
  reserved: z.number(),
  reports: z.number(),
  lastSeq: z.number(),
  at: z.string(),
});
export type StoredTeamStatus = z.infer<typeof storedStatusSchema>;

interface MembershipRow {
  url: string;
  team_name: string;
  desk_id: string;
  analyst: string;
  joined_at: string;
  pulled_up_to: number;
  synced_at: string | null;
  status_json: string | null;
}

export class TeamMembership {
  constructor(
    private readonly db: DeskDb,
    private readonly passwordFile: string,
    private readonly sealer: LocalSealer,
  ) {}

  current(): Membership | null {
    const row = this.db.prepare<[], MembershipRow>('SELECT * FROM team_membership WHERE id = 1').get();
    if (!row) return null;
    let status: StoredTeamStatus | null = null;
    if (row.status_json !== null) {
      const parsed = storedStatusSchema.safeParse(JSON.parse(row.status_json));
      status = parsed.success ? parsed.data : null;
    }
    return {
      url: row.url,
      teamName: row.team_name,
      deskId: row.desk_id,
      analyst: row.analyst,
      joinedAt: row.joined_at,
      pulledUpTo: row.pulled_up_to,
      syncedAt: row.synced_at,
      status,
    };
  }

  /** How to connect, password unsealed; null outside a team. */
  connection(): TeamConnectOptions | null {
    const membership = this.current();
    if (!membership) return null;
    return { url: membership.url, password: this.password() };
  }

  private password(): string | null {
    if (!existsSync(this.passwordFile)) return null;
    const sealed = readFileSync(this.passwordFile, 'utf8');
    if (this.sealer.needsKeychain(sealed)) {
      throw new DeskError(
        'team_auth_failed',
        'The team database password was sealed by the desktop app with the system keychain, which the command line and the MCP server cannot open; run "intel-desk team join --db URL" here once (the app reads the password kept that way too).',
        'refused',
      );
    }
    const plain = this.sealer.open(sealed);
    if (plain === null) {
      throw new DeskError(
        'team_auth_failed',
        'The team database password cannot be unsealed on this computer; join the team again with "intel-desk team join".',
        'refused',
      );
    }
    return plain;
  }

  join(input: {
    url: string;
    password: string | null;
    teamName: string;
    analyst: string;
    now: Date;
  }): Membership {
    if (input.password !== null) writePrivateFile(this.passwordFile, this.sealer.seal(input.password));
    else rmSync(this.passwordFile, { force: true });
    const previous = this.current();
    this.db
      .prepare(
        `INSERT INTO team_membership (id, url, team_name, desk_id, analyst, joined_at)
         VALUES (1, @url, @teamName, @deskId, @analyst, @joinedAt)
         ON CONFLICT (id) DO UPDATE SET url = excluded.url, team_name = excluded.team_name,
           analyst = excluded.analyst`,
      )
      .run({
        url: input.url,
        teamName: input.teamName,
        deskId: previous?.deskId ?? `${hostname().slice(0, 40)}-${randomUUID().slice(0, 8)}`,
        analyst: input.analyst,
        joinedAt: input.now.toISOString(),
      });
    return this.current()!;
  }

  /** Leaves the team: the reports pulled stay readable, marked as the team's; the password is deleted. */
  leave(): boolean {
    const left = this.db.prepare('DELETE FROM team_membership WHERE id = 1').run().changes > 0;
    rmSync(this.passwordFile, { force: true });
    return left;
  }

  /** Who bought a report pulled from the team, kept after leaving: the Library still marks it as the team's. */
  boughtBy(serviceUrl: string, reportId: string): { analyst: string; deskId: string } | null {
    return (
      this.db
        .prepare<[string, string], { analyst: string; deskId: string }>(
          'SELECT analyst, desk_id AS deskId FROM team_reports WHERE service_url = ? AND id = ?',
        )
        .get(serviceUrl, reportId) ?? null
    );
  }

  pulled(upTo: number): void {
    this.db
      .prepare('UPDATE team_membership SET pulled_up_to = ? WHERE id = 1 AND pulled_up_to < ?')
      .run(upTo, upTo);
  }

  synced(status: TeamStatus, at: Date): void {
    const stored: StoredTeamStatus = {
      name: status.name,
      timeZone: status.timeZone,
      dailyCap: status.dailyCap?.toString() ?? null,
      perPurchaseCap: status.perPurchaseCap?.toString() ?? null,
      overCap: status.overCap,
      spentToday: status.spentToday.toString(),
      inDoubt: status.inDoubt,
      reserved: status.reserved,
      reports: status.reports,
      lastSeq: status.lastSeq,
      at: at.toISOString(),
    };
    this.db
      .prepare('UPDATE team_membership SET synced_at = ?, status_json = ? WHERE id = 1')
      .run(at.toISOString(), JSON.stringify(stored));
  }
}
