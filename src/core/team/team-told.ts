/**
 * What this data folder has told the team of each purchase it reserved there (desk.db's team_purchases), and
 * which process reserved it. Every process on the folder (the window, a CLI run, the MCP server) syncs the
 * same records, so a purchase another live process reserved and has not yet recorded in the ledger is still
 * on its way: a sync elsewhere must leave it to that process, or the team would free reports being paid for.
 */
import type { DeskDb } from '../db/open';
import { closeDesk, holderFor, holderLiveness, openDesk, parseHolder } from '../ledger/reservation-holder';

export type Told = 'reserved' | 'in_doubt' | 'paid' | 'published' | 'failed';

export interface OpenTeamPurchase {
  purchaseId: string;
  told: Told;
  /** Reserved by another process on this folder that is still running (or cannot be asked). */
  heldElsewhere: boolean;
}

export class TeamTold {
  /** This store's own name among the holders, as a Reservations store has one (ledger/reservation-holder.ts). */
  private readonly desk = openDesk();

  constructor(
    private readonly db: DeskDb,
    private readonly now: () => number,
  ) {}

  told(purchaseId: string): Told | null {
    const row = this.db
      .prepare<[string], { told: Told }>('SELECT told FROM team_purchases WHERE purchase_id = ?')
      .get(purchaseId);
    return row?.told ?? null;
  }

  /** Reserving: noted with this process as its holder before the team is asked. */
  reserving(purchaseId: string): void {
    this.db
      .prepare(
        `INSERT INTO team_purchases (purchase_id, told, updated_at, holder_json) VALUES (?, 'reserved', ?, ?)
         ON CONFLICT (purchase_id) DO UPDATE SET told = excluded.told, updated_at = excluded.updated_at,
           holder_json = excluded.holder_json`,
      )
      .run(purchaseId, this.stamp(), JSON.stringify(holderFor(this.desk)));
  }

  tell(purchaseId: string, told: Told): void {
    this.db
      .prepare('UPDATE team_purchases SET told = ?, updated_at = ? WHERE purchase_id = ?')
      .run(told, this.stamp(), purchaseId);
  }

  forget(purchaseId: string): void {
    this.db.prepare('DELETE FROM team_purchases WHERE purchase_id = ?').run(purchaseId);
  }

  /** Purchases the team has not heard the end of. */
  open(): OpenTeamPurchase[] {
    return this.db
      .prepare<[], { purchase_id: string; told: Told; holder_json: string | null }>(
        "SELECT purchase_id, told, holder_json FROM team_purchases WHERE told IN ('reserved', 'in_doubt', 'paid')",
      )
      .all()
      .map((row) => ({
        purchaseId: row.purchase_id,
        told: row.told,
        heldElsewhere: this.heldElsewhere(row.holder_json),
      }));
  }

  close(): void {
    closeDesk(this.desk);
  }

  /** This process answers for its own purchases itself (TeamDesk keeps those under way in memory). */
  private heldElsewhere(holderJson: string | null): boolean {
    const holder = holderJson === null ? null : parseHolder(holderJson);
    if (!holder) return false;
    const mine = holder.pid === process.pid && holder.desk === this.desk;
    return !mine && holderLiveness(holder) !== 'dead';
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }
}
