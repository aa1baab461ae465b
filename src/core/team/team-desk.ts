/**
 * A desk as a member of its team: the gate the purchaser passes before its own reservation, and the sync that
 * tells the team how this desk's purchases ended, publishes their reports, frees team purchases whose
 * authorization closed unused, and pulls what the team published into the local library.
 */
import { createHash } from 'node:crypto';
import type { PublicClient } from 'viem';
import type { DeskDb } from '../db/open';
import { DeskError } from '../base/errors';
import type { DeskEvents } from '../base/events';
import type { TeamGate, TeamGateReservation } from '../payments/team-gate';
import { authorizationUsed } from '../payments/chain-state';
import { TeamAuthority, type TeamStatus } from './authority';
import type { TeamMembership } from './membership';
import { TeamFollow } from './team-follow';
import { TeamPull, type PullInto } from './team-pull';

export interface TeamDeskDeps {
  db: DeskDb;
  membership: TeamMembership;
  library: PullInto;
  events: DeskEvents;
  now: () => number;
  /** A read-only client for a network's chain, when its RPC is known: it says whether a nonce was used. */
  chain: (network: string) => PublicClient | null;
}

export interface TeamSyncSummary {
  told: number;
  published: number;
  freed: number;
  pulled: number;
  status: TeamStatus;
}

type Told = 'reserved' | 'in_doubt' | 'paid' | 'published' | 'failed';

export class TeamDesk implements TeamGate {
  private authorityHeld: { url: string; authority: TeamAuthority } | null = null;
  /** Syncs run one after another: two would publish the same purchase twice (harmless, but wasted). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly following: TeamFollow;
  /**
   * Purchases this process reserved on the team and has not yet ended or released: until their ledger row
   * exists (or while they wait for a signature) a sync must not take them for ones that signed nothing.
   */
  private readonly underWay = new Set<string>();

  constructor(private readonly deps: TeamDeskDeps) {
    this.following = new TeamFollow({ authority: () => this.authority(), sync: () => this.sync() });
  }

  /** For a window's desk: syncs whenever the team publishes, from now until close, while in a team. */
  follow(): void {
    this.following.start();
  }

  /** Joined or left: following, if asked for, moves to the team joined now. */
  membershipChanged(): Promise<void> {
    return this.following.restart();
  }

  /** The authority for the team joined now, or null outside a team. */
  authority(): TeamAuthority | null {
    const connection = this.deps.membership.connection();
    if (!connection) {
      void this.dropAuthority();
      return null;
    }
    if (this.authorityHeld?.url !== connection.url) {
      void this.dropAuthority();
      this.authorityHeld = { url: connection.url, authority: new TeamAuthority(connection) };
    }
    return this.authorityHeld.authority;
  }

  private async dropAuthority(): Promise<void> {
    const held = this.authorityHeld;
    this.authorityHeld = null;
    await held?.authority.close();
  }

  async reserve(reservation: TeamGateReservation): Promise<void> {
    const authority = this.authority();
    const membership = this.deps.membership.current();
    if (!authority || !membership) return;
    // Noted before asking: if the answer to the COMMIT is lost, the row may exist, and the next sync finds
    // no ledger row for it here and releases it.
    this.underWay.add(reservation.purchaseId);
    this.tell(reservation.purchaseId, 'reserved');
    try {
      await authority.reserve({ ...reservation, deskId: membership.deskId, analyst: membership.analyst });
    } catch (error) {
      this.underWay.delete(reservation.purchaseId);
      if (error instanceof DeskError && error.code !== 'team_unreachable')
        this.forget(reservation.purchaseId);
      throw error;
    }
  }

  async release(purchaseId: string): Promise<void> {
    this.underWay.delete(purchaseId);
    const authority = this.authority();
    if (!authority || !this.told(purchaseId)) return;
    // Unreachable now: the row stays 'reserved' here, and the next sync finds no ledger row and releases it.
    const released = await authority.release(purchaseId).catch(() => null);
    if (released !== null) this.tell(purchaseId, 'failed');
  }

  ended(purchaseId: string): void {
    this.underWay.delete(purchaseId);
    if (!this.told(purchaseId)) return;
    void this.serially(() => this.tellOutcomes()).catch(() => undefined);
  }

  /** Everything a sync does, in order; a failure stops it with a team code and changes nothing after it. */
  sync(): Promise<TeamSyncSummary> {
    return this.serially(async () => {
      const authority = this.authority();
      if (!authority) throw notJoined();
      const { told, published } = await this.tellOutcomes();
      const freed = await this.freeLapsed(authority);
      const pulled = await new TeamPull(
        this.deps.db,
        authority,
        this.deps.membership,
        this.deps.library,
      ).all();
      const status = await authority.status();
      this.deps.membership.synced(status, new Date(this.deps.now()));
      this.deps.events.changed('purchases.changed');
      return { told, published, freed, pulled, status };
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private told(purchaseId: string): Told | null {
    const row = this.deps.db
      .prepare<[string], { told: Told }>('SELECT told FROM team_purchases WHERE purchase_id = ?')
      .get(purchaseId);
    return row?.told ?? null;
  }

  private tell(purchaseId: string, told: Told): void {
    this.deps.db
      .prepare(
        `INSERT INTO team_purchases (purchase_id, told, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (purchase_id) DO UPDATE SET told = excluded.told, updated_at = excluded.updated_at`,
      )
      .run(purchaseId, told, new Date(this.deps.now()).toISOString());
  }

  private forget(purchaseId: string): void {
    this.deps.db.prepare('DELETE FROM team_purchases WHERE purchase_id = ?').run(purchaseId);
  }

  /**
   * Tells the team how each purchase it has not heard the end of ended here, from the ledger: completed is
   * paid and its reports published; failed, or never recorded (nothing was signed), frees its reports; sent
   * or in doubt stays held, counted in full against the team's caps, until the ledger knows. One this process
   * still has under way has no ledger row yet: it is left to its purchase, which tells the team when it ends.
   */
  private async tellOutcomes(): Promise<{ told: number; published: number }> {
    const authority = this.authority();
    if (!authority) return { told: 0, published: 0 };
    const open = this.deps.db
      .prepare<[], { purchase_id: string; told: Told }>(
        "SELECT purchase_id, told FROM team_purchases WHERE told IN ('reserved', 'in_doubt', 'paid')",
      )
      .all();
    let told = 0;
    let published = 0;
    for (const { purchase_id: purchaseId, told: was } of open) {
      const row = this.ledgerRow(purchaseId);
      if (!row || row.state === 'signed') {
        if (this.underWay.has(purchaseId)) continue;
        if (row?.state === 'signed' && this.holdsReservation(purchaseId)) continue;
        await authority.release(purchaseId);
        this.tell(purchaseId, 'failed');
        told++;
      } else if (row.state === 'failed') {
        await authority.finish(purchaseId, 'failed', null);
        this.tell(purchaseId, 'failed');
        told++;
      } else if (row.state === 'completed') {
        if (was !== 'paid') await authority.finish(purchaseId, 'paid', row.tx_hash);
        this.tell(purchaseId, 'paid');
        published += await authority.publish(purchaseId, this.reportsOf(purchaseId));
        this.tell(purchaseId, 'published');
        told++;
      } else if (was !== 'in_doubt' && row.state === 'in_doubt') {
        await authority.finish(purchaseId, 'in_doubt', null);
        this.tell(purchaseId, 'in_doubt');
        told++;
      }
    }
    return { told, published };
  }

  /** The ledger's word on a purchase: its state, and the settlement's transaction once known. */
  private ledgerRow(purchaseId: string): { state: string; tx_hash: string | null } | undefined {
    return this.deps.db
      .prepare<[string], { state: string; tx_hash: string | null }>(
        'SELECT state, tx_hash FROM purchases WHERE id = ?',
      )
      .get(purchaseId);
  }

  /** A purchase signed here whose process still holds its local reservation is still on its way. */
  private holdsReservation(purchaseId: string): boolean {
    return (
      this.deps.db.prepare('SELECT 1 FROM reservations WHERE purchase_id = ?').get(purchaseId) !== undefined
    );
  }

  private reportsOf(purchaseId: string): { reportId: string; raw: string; sha256: string }[] {
    return this.deps.db
      .prepare<[string], { id: string; raw_json: string }>(
        'SELECT id, raw_json FROM snapshots WHERE purchase_id = ?',
      )
      .all(purchaseId)
      .map((row) => ({
        reportId: row.id,
        raw: row.raw_json,
        sha256: createHash('sha256').update(row.raw_json, 'utf8').digest('hex'),
      }));
  }

  /**
   * Team purchases still open a minute past their authorization's close: the chain says whether the nonce
   * was used. Unused, it can never be, so the reports are freed; used, the purchase paid (its desk
   * publishes the reports when it returns). Without a chain RPC this desk leaves them to one that has one.
   */
  private async freeLapsed(authority: TeamAuthority): Promise<number> {
    let freed = 0;
    for (const lapsed of await authority.lapsed()) {
      const chain = this.deps.chain(lapsed.network);
      if (!chain) continue;
      const used = await authorizationUsed(lapsed, chain).catch(() => null);
      if (used === null) continue;
      const outcome = await authority.finish(lapsed.purchaseId, used ? 'paid' : 'failed', null);
      if (outcome === 'failed') freed++;
    }
    return freed;
  }

  async close(): Promise<void> {
    await this.following.stop();
    await this.queue;
    await this.dropAuthority();
  }
}

function notJoined(): DeskError {
  return new DeskError(
    'team_not_joined',
    'This desk is in no team; join one with "intel-desk team join --db URL".',
    'usage',
  );
}
