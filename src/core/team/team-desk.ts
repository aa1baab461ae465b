/**
 * A desk as a member of its team: the gate the purchaser passes before its own reservation, and the sync that
 * tells the team how this desk's purchases ended, publishes their reports, frees team purchases whose
 * authorization closed unused, and pulls what the team published into the local library.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { PublicClient } from 'viem';
import type { DeskDb } from '../db/open';
import type { PurchaseLedger } from '../ledger/purchases';
import { DeskError } from '../base/errors';
import type { DeskEvents } from '../base/events';
import type { QuoteTeamView } from '../../shared/rpc';
import type { TeamGate, TeamGateReservation, TeamLookRequest } from '../payments/team-gate';
import { authorizationUsed } from '../payments/chain-state';
import { TeamAuthority, type LapsedTeamPurchase, type TeamStatus } from './authority';
import type { TeamMembership } from './membership';
import { TeamFollow } from './team-follow';
import { TeamTold } from './team-told';
import { localServiceUrl, teamServiceKey } from './service-key';
import { TeamPull, type PullInto } from './team-pull';

export interface TeamDeskDeps {
  db: DeskDb;
  /** The ledger's word on how each purchase ended here. */
  ledger: Pick<PurchaseLedger, 'get'>;
  membership: TeamMembership;
  library: PullInto;
  events: DeskEvents;
  now: () => number;
  /** better-sqlite3's addon where the runtime needs its own build (Electron): for the pull's checkpoint thread. */
  nativeBinding?: string | undefined;
  /** The service as this desk names it now: reports pulled for it are stored under this spelling. */
  serviceUrl: () => string;
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

/** A status as read at `at` (this desk's clock); fresh when it came from the database just now. */
export interface StatusRead {
  status: TeamStatus;
  at: number;
  fresh: boolean;
}

interface StatusReading {
  url: string;
  answer: Promise<StatusRead>;
}

export class TeamDesk implements TeamGate {
  private authorityHeld: { url: string; authority: TeamAuthority } | null = null;
  /** Syncs run one after another: two would publish the same purchase twice (harmless, but wasted). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly following: TeamFollow;
  /** The team's status as last read, and when (this desk's clock): see status(). */
  private heard: { url: string; status: TeamStatus; at: number } | null = null;
  private reading: StatusReading | null = null;
  /**
   * Purchases this process reserved on the team and has not yet ended or released: until their ledger row
   * exists (or while they wait for a signature) a sync must not take them for ones that signed nothing.
   */
  private readonly underWay = new Set<string>();
  private readonly records: TeamTold;

  constructor(private readonly deps: TeamDeskDeps) {
    this.records = new TeamTold(deps.db, deps.now);
    this.following = new TeamFollow({
      authority: () => this.authority(),
      sync: () => this.sync(),
      // The connection that hears the team went: what was heard may be stale, so the next status asks.
      lost: () => this.forgetStatus(),
    });
  }

  /** For a window's desk: syncs whenever the team publishes, from now until close, while in a team. */
  follow(): void {
    this.following.start();
  }

  /** Joined or left: following, if asked for, moves to the team joined now. */
  membershipChanged(): Promise<void> {
    this.forgetStatus();
    return this.following.restart();
  }

  /**
   * The team's caps and spend. A window refetches them whenever its settings or purchases change, several
   * screens at once: a status read (or synced) in the last STATUS_FRESH_MS is answered again without a
   * round trip to the database. This desk's own reservations and outcomes forget it, so they show at once.
   */
  async status(): Promise<StatusRead> {
    const authority = this.authority();
    const url = this.authorityHeld?.url;
    if (!authority || url === undefined) throw notJoined();
    const heard = this.heard;
    if (heard?.url === url && Math.abs(this.deps.now() - heard.at) < STATUS_FRESH_MS)
      return { status: heard.status, at: heard.at, fresh: false };
    // Screens asking at once share the one read on its way.
    if (this.reading?.url === url) return this.reading.answer;
    const reading: StatusReading = {
      url,
      answer: authority.status().then((status) => {
        const at = this.deps.now();
        // Forgotten meanwhile (this desk reserved, left): the answer may predate that, so it is not kept.
        if (this.reading === reading) this.heard = { url, status, at };
        return { status, at, fresh: true };
      }),
    };
    this.reading = reading;
    const done = () => {
      if (this.reading === reading) this.reading = null;
    };
    reading.answer.then(done, done);
    return reading.answer;
  }

  private forgetStatus(): void {
    this.heard = null;
    this.reading = null;
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
      const authority = new TeamAuthority(connection, (teamUrl) =>
        localServiceUrl(teamUrl, this.deps.serviceUrl()),
      );
      this.authorityHeld = { url: connection.url, authority };
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
    this.forgetStatus();
    // Noted before asking: if the answer to the COMMIT is lost, the row may exist, and the next sync finds
    // no ledger row for it here and releases it.
    this.underWay.add(reservation.purchaseId);
    this.records.reserving(reservation.purchaseId);
    try {
      await authority.reserve({
        ...reservation,
        serviceUrl: teamServiceKey(reservation.serviceUrl),
        deskId: membership.deskId,
        analyst: membership.analyst,
      });
    } catch (error) {
      this.underWay.delete(reservation.purchaseId);
      if (error instanceof DeskError && error.code !== 'team_unreachable')
        this.records.forget(reservation.purchaseId);
      throw error;
    } finally {
      // A status read while the reservation was on its way may not count it.
      this.forgetStatus();
    }
  }

  /**
   * The reservation's dry run for a quote, with the claims on its reports: what Buy would meet. The dry run
   * holds nothing, so the authorization's terms are placeholders; the amount and the reports are the quote's.
   */
  async look(request: TeamLookRequest): Promise<QuoteTeamView | null> {
    if (!this.deps.membership.current()) return null;
    try {
      const authority = this.authority();
      const membership = this.deps.membership.current();
      if (!authority || !membership) return null;
      const { claims, refusal } = await authority.look({
        ...request,
        serviceUrl: teamServiceKey(request.serviceUrl),
        purchaseId: randomUUID(),
        payer: ZERO_ADDRESS,
        nonce: ZERO_NONCE,
        validBefore: BigInt(Math.floor(this.deps.now() / 1000) + 3600),
        deskId: membership.deskId,
        analyst: membership.analyst,
        acceptOverCap: false,
      });
      const reports = claims.map(({ reportId, ...mark }) => ({ id: reportId, ...mark }));
      return {
        reachable: true,
        reports,
        free: new Set(request.reportIds).size - reports.length,
        refusal:
          refusal && isTeamRefusal(refusal.code) ? { code: refusal.code, message: refusal.message } : null,
      };
    } catch (error) {
      const known = error instanceof DeskError;
      return {
        reachable: false,
        code: known ? error.code : 'team_db_error',
        reason: known ? error.message : String(error),
      };
    }
  }

  async release(purchaseId: string): Promise<void> {
    this.underWay.delete(purchaseId);
    const authority = this.authority();
    if (!authority || !this.records.told(purchaseId)) return;
    // Unreachable now: the row stays 'reserved' here, and the next sync finds no ledger row and releases it.
    const released = await authority.release(purchaseId).catch(() => null);
    if (released !== null) this.records.tell(purchaseId, 'failed');
  }

  ended(purchaseId: string): void {
    this.underWay.delete(purchaseId);
    if (!this.records.told(purchaseId)) return;
    this.forgetStatus();
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
        this.deps.nativeBinding,
      ).all();
      this.forgetStatus();
      const { status, at } = await this.status();
      this.deps.membership.synced(status, new Date(at));
      this.deps.events.changed('purchases.changed');
      return { told, published, freed, pulled, status };
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Tells the team how each purchase it has not heard the end of ended here, from the ledger: completed is
   * paid and its reports published; failed, or never recorded (nothing was signed), frees its reports; sent
   * or in doubt stays held, counted in full against the team's caps, until the ledger knows. One this process
   * or another live one on this folder still has under way has no ledger row yet: it is left to its purchase,
   * which tells the team when it ends (or, its process gone, the next sync here frees it).
   */
  private async tellOutcomes(): Promise<{ told: number; published: number }> {
    const authority = this.authority();
    if (!authority) return { told: 0, published: 0 };
    let told = 0;
    let published = 0;
    for (const { purchaseId, told: was, heldElsewhere } of this.records.open()) {
      const row = this.deps.ledger.get(purchaseId);
      if (!row || row.state === 'signed') {
        if (this.underWay.has(purchaseId) || heldElsewhere) continue;
        if (row?.state === 'signed' && this.holdsReservation(purchaseId)) continue;
        await authority.release(purchaseId);
        this.records.tell(purchaseId, 'failed');
        told++;
      } else if (row.state === 'failed') {
        await authority.finish(purchaseId, 'failed', null);
        this.records.tell(purchaseId, 'failed');
        told++;
      } else if (row.state === 'completed') {
        if (was !== 'paid') await authority.finish(purchaseId, 'paid', row.tx_hash);
        this.records.tell(purchaseId, 'paid');
        published += await authority.publish(purchaseId, this.reportsOf(purchaseId));
        this.records.tell(purchaseId, 'published');
        told++;
      } else if (was !== 'in_doubt' && row.state === 'in_doubt') {
        await authority.finish(purchaseId, 'in_doubt', null);
        this.records.tell(purchaseId, 'in_doubt');
        told++;
      }
    }
    return { told, published };
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
   * Team purchases still open a minute past their authorization's close by the database's clock. The chain's
   * own clock must be past it too (EIP-3009 settles only while block.timestamp < validBefore): a database
   * clock running ahead of the chain must not free an authorization that can still settle. Read at that block,
   * unused, it can never be used, so the reports are freed; used, the purchase paid (its desk publishes the
   * reports when it returns). Without a chain RPC this desk leaves them to one that has one.
   */
  private async freeLapsed(authority: TeamAuthority): Promise<number> {
    let freed = 0;
    for (const lapsed of await authority.lapsed()) {
      const chain = this.deps.chain(lapsed.network);
      if (!chain) continue;
      const used = await closedAndUsed(lapsed, chain).catch(() => null);
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
    this.records.close();
  }
}

/** Whether a closed authorization was used, read at a block past its close; null while the chain is not there. */
async function closedAndUsed(lapsed: LapsedTeamPurchase, chain: PublicClient): Promise<boolean | null> {
  const block = await chain.getBlock({ blockTag: 'latest' });
  if (block.timestamp < lapsed.validBefore) return null;
  return authorizationUsed(lapsed, chain, block.number);
}

type TeamRefusalCode = NonNullable<Extract<QuoteTeamView, { reachable: true }>['refusal']>['code'];
const TEAM_REFUSALS: ReadonlySet<string> = new Set<TeamRefusalCode>([
  'team_owned',
  'team_in_progress',
  'over_team_purchase_cap',
  'over_team_daily_cap',
]);
const isTeamRefusal = (code: string): code is TeamRefusalCode => TEAM_REFUSALS.has(code);

/** How long a status read answers again: a window's burst of refetches, not a colleague's purchase. */
export const STATUS_FRESH_MS = 5_000;

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
const ZERO_NONCE = `0x${'0'.repeat(64)}`;

function notJoined(): DeskError {
  return new DeskError(
    'team_not_joined',
    'This desk is in no team; join one with "intel-desk team join --db URL".',
    'usage',
  );
}
