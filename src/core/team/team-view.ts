/** Joining, seeing and leaving a team: what `team join/status/leave` and Settings → Team do. */
import type { TeamCapsView, TeamView } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import type { DeskDb } from '../db/open';
import type { TeamStatus } from './authority';
import { TeamAuthority } from './authority';
import { parseTeamUrl } from './connection';
import type { StoredTeamStatus, TeamMembership } from './membership';
import type { TeamDesk } from './team-desk';

function capsView(status: TeamStatus | StoredTeamStatus): TeamCapsView {
  const text = (value: bigint | string | null) => (value === null ? null : value.toString());
  return {
    name: status.name,
    timeZone: status.timeZone,
    dailyCap: text(status.dailyCap),
    perPurchaseCap: text(status.perPurchaseCap),
    overCap: status.overCap,
    spentToday: status.spentToday.toString(),
    inDoubt: status.inDoubt,
    reserved: status.reserved,
    reports: status.reports,
  };
}

export class TeamViews {
  constructor(
    private readonly db: DeskDb,
    private readonly membership: TeamMembership,
    private readonly desk: TeamDesk,
    private readonly now: () => number,
  ) {}

  /**
   * Joins the team the URL's role belongs to: the server must answer, the schema must be one this desk
   * knows, and the role must be in a team, before anything is stored; then the first sync pulls its reports.
   */
  async join(typedUrl: string): Promise<TeamView> {
    const { url, password, user } = parseTeamUrl(typedUrl);
    const probe = new TeamAuthority({ url, password });
    let status: TeamStatus;
    try {
      status = await probe.status();
    } finally {
      await probe.close();
    }
    const analyst = user ?? process.env['PGUSER'] ?? 'unknown';
    this.membership.join({ url, password, teamName: status.name, analyst, now: new Date(this.now()) });
    this.membership.synced(status, new Date(this.now()));
    await this.desk.membershipChanged();
    return this.view();
  }

  /** The team as the server says now, or the dated copy when it does not answer. */
  async view(): Promise<TeamView> {
    const membership = this.membership.current();
    if (!membership) return { joined: false };
    let caps: TeamCapsView | null = null;
    let capsAt: string | null = null;
    let unreachableReason: string | null = null;
    try {
      const { status, at, fresh } = await this.desk.status();
      if (fresh) this.membership.synced(status, new Date(at));
      caps = capsView(status);
      capsAt = new Date(at).toISOString();
    } catch (error) {
      unreachableReason = error instanceof DeskError ? error.message : String(error);
      if (membership.status) {
        caps = capsView(membership.status);
        capsAt = membership.status.at;
      }
    }
    const pulled = this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM team_reports').get()?.n ?? 0;
    return {
      joined: true,
      teamName: membership.teamName,
      url: membership.url,
      deskId: membership.deskId,
      analyst: membership.analyst,
      joinedAt: membership.joinedAt,
      syncedAt: this.membership.current()?.syncedAt ?? null,
      pulled,
      reachable: unreachableReason === null,
      unreachableReason,
      caps,
      capsAt,
    };
  }

  /** Leaves the team; purchases it has not heard the end of are told first when it answers. */
  async leave(): Promise<{ left: boolean }> {
    if (!this.membership.current()) return { left: false };
    const open =
      this.db
        .prepare<[], { n: number }>(
          "SELECT COUNT(*) AS n FROM team_purchases WHERE told IN ('reserved', 'in_doubt', 'paid')",
        )
        .get()?.n ?? 0;
    if (open > 0) await this.desk.sync().catch(() => undefined);
    const left = this.membership.leave();
    await this.desk.membershipChanged();
    return { left };
  }
}
