/**
 * An open window's desk learns at once when its team publishes: it LISTENs on the team database and syncs on
 * each notification. A lost connection is tried again after a delay that doubles up to a minute, on a timer
 * that never keeps the process alive; nothing polls while the connection holds.
 */
import type { TeamAuthority } from './authority';

export interface TeamFollowDeps {
  /** The authority of the team joined now, or null outside a team. */
  authority: () => TeamAuthority | null;
  /** Pulls what the team published (and tells it what this desk owes it); its failures are the next try's. */
  sync: () => Promise<unknown>;
  /** The connection was lost (told before it is tried again). */
  lost?: () => void;
  firstRetryMs?: number;
  maxRetryMs?: number;
}

export class TeamFollow {
  private wanted = false;
  /** Bumped by every start, loss and stop: answers of an older connection are ignored. */
  private generation = 0;
  private stopListening: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private delayMs: number;
  private pulling: Promise<void> | null = null;
  private pullAgain = false;

  constructor(private readonly deps: TeamFollowDeps) {
    this.delayMs = deps.firstRetryMs ?? 1_000;
  }

  /** Follows the team from now on, whenever this desk is in one. */
  start(): void {
    this.wanted = true;
    void this.restart();
  }

  /** Joined, left or joined another team: the old connection ends, and a new one starts when in a team. */
  async restart(): Promise<void> {
    await this.halt();
    if (!this.wanted) return;
    this.delayMs = this.deps.firstRetryMs ?? 1_000;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.wanted = false;
    await this.halt();
    await this.pulling;
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    let authority: TeamAuthority | null;
    try {
      authority = this.deps.authority();
    } catch {
      // The password cannot be unsealed here: joining again restarts this.
      return;
    }
    if (!authority) return;
    let stop: () => Promise<void>;
    try {
      stop = await authority.listen(
        () => {
          if (generation === this.generation) this.pull();
        },
        () => this.lost(generation),
      );
    } catch {
      if (generation === this.generation) this.retry();
      return;
    }
    if (generation !== this.generation) {
      await stop();
      return;
    }
    this.stopListening = stop;
    this.delayMs = this.deps.firstRetryMs ?? 1_000;
    // What the team published while this desk was not listening.
    this.pull();
  }

  private lost(generation: number): void {
    if (generation !== this.generation) return;
    this.deps.lost?.();
    const stop = this.stopListening;
    this.stopListening = null;
    void stop?.();
    this.retry();
  }

  private retry(): void {
    const generation = ++this.generation;
    const delay = this.delayMs;
    this.delayMs = Math.min(delay * 2, this.deps.maxRetryMs ?? 60_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (generation === this.generation && this.wanted) void this.connect();
    }, delay);
    this.timer.unref();
  }

  /** Notifications come in bursts (one per report published): one sync at a time, and one more after it. */
  private pull(): void {
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = this.deps
      .sync()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.pulling = null;
        if (this.pullAgain && this.wanted) {
          this.pullAgain = false;
          this.pull();
        }
      });
  }

  private async halt(): Promise<void> {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.();
  }
}
