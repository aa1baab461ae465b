/**
 * The faults a chaos run draws, one per purchase exchange, and the tally of what was drawn. Each kind names a
 * real condition the desk meets in the field; the proxies and the driver make it happen for real.
 */
import type { PurchaseStep } from '../../src/core';
import { purchaseStepSchema } from '../../src/shared/events';
import { weighted, type Prng } from './prng';

export const FAULT_WEIGHTS = {
  /** Nothing goes wrong. */
  none: 30,
  /** The service's port refuses connections when the paid request would leave (proxy down). */
  refused: 5,
  /** The connection is reset after the paid request left, before the service saw it. */
  reset: 5,
  /** The service settles; its answer never comes back (the connection closes). */
  answer_dropped: 6,
  /** The service settles; its answer is held past the desk's deadline. */
  answer_delayed: 4,
  /** The service settles; a gateway answers 502 instead. */
  gateway_502: 4,
  /** The service settles; a gateway answers 504 instead. */
  gateway_504: 4,
  /** The service settles; a rate limiter answers 429 instead. */
  rate_limited_429: 3,
  /** The paid request reaches the service twice (a retrying gateway); the desk gets the first answer. */
  paid_twice: 6,
  /** A retrying gateway passes on the service's answer to the second copy (409) after the first settled. */
  paid_twice_second_answer: 3,
  /** The desk's chain RPC stalls past its deadline during the purchase and the reconciliation after it. */
  chain_stall: 4,
  /** The desk's chain RPC answers errors during the purchase and the reconciliation after it. */
  chain_error: 4,
  /** The desk process is killed with SIGKILL at a random purchase step and restarted on its data folder. */
  desk_kill: 10,
  /** The service process is killed with SIGKILL while it handles the paid request, then restarted. */
  service_kill: 2,
  /** The chain sat idle for minutes: its latest block that old when the purchase is dated. */
  chain_idle: 4,
  /** The desk's clock runs ahead of or behind the wall by up to two minutes. */
  clock_skew: 6,
  /** Two purchases of different reports started on one desk at once (two windows, a double click). */
  concurrent_purchases: 6,
} as const;

/**
 * Drawn besides the others with `--team`: the team's PostgreSQL failing around the reservation each purchase
 * takes there before signing. Each desk reaches it through a fault proxy of its own.
 */
export const TEAM_FAULT_WEIGHTS = {
  /** The desk's route to the team database is cut before the reservation, new connections refused. */
  pg_down: 4,
  /** The reservation commits; its answer (the COMMIT's) is cut on the way back. */
  pg_commit_cut: 4,
  /** The reservation's answer arrives; the connection is cut at the purchase's end (its finish). */
  pg_cut_after_reservation: 4,
  /** The cluster is stopped with `pg_ctl stop -m immediate` during the purchase, then started again. */
  pg_crash: 2,
  /** The desk's route to the team database stalls for a while, every byte held, then resumes. */
  pg_stall: 4,
} as const;

export type FaultKind = keyof typeof FAULT_WEIGHTS | keyof typeof TEAM_FAULT_WEIGHTS;
export const FAULT_KINDS = Object.keys(FAULT_WEIGHTS) as FaultKind[];
export const TEAM_FAULT_KINDS = [...FAULT_KINDS, ...Object.keys(TEAM_FAULT_WEIGHTS)] as FaultKind[];

/**
 * Where a desk kill may land: every step the purchaser reports, from signing to the end (`quoted` is the
 * window's own state before a purchase starts; the purchaser never reports it).
 */
export const KILL_STEPS: readonly PurchaseStep[] = purchaseStepSchema.options.filter(
  (step) => step !== 'quoted',
);

export interface Fault {
  kind: FaultKind;
  /** desk_kill: the step the desk dies at. */
  killAt?: PurchaseStep;
  /** clock_skew: milliseconds the desk's clock is off (negative: behind). */
  skewMs?: number;
  /** chain_idle: seconds the chain stood without a block. */
  idleSeconds?: number;
  /** service_kill: milliseconds after the paid request reached the service. */
  killAfterMs?: number;
  /** pg_crash: milliseconds after the purchase started; pg_stall: how long the route stalls. */
  pgAfterMs?: number;
}

/** A fault for one purchase; `team` adds the team database's to the menu (the default run draws as before). */
export function drawFault(prng: Prng, team = false): Fault {
  const kind: FaultKind = team
    ? weighted<FaultKind>(prng, { ...FAULT_WEIGHTS, ...TEAM_FAULT_WEIGHTS })
    : weighted(prng, FAULT_WEIGHTS);
  switch (kind) {
    case 'pg_crash':
      return { kind, pgAfterMs: prng.int(0, 60) };
    case 'pg_stall':
      return { kind, pgAfterMs: prng.int(200, 2_500) };
    case 'desk_kill':
      return { kind, killAt: prng.pick(KILL_STEPS) };
    case 'clock_skew':
      return { kind, skewMs: prng.int(-120_000, 120_000) };
    case 'chain_idle':
      return { kind, idleSeconds: prng.int(120, 900) };
    case 'service_kill':
      return { kind, killAfterMs: prng.int(0, 40) };
    default:
      return { kind };
  }
}

export class FaultTally {
  readonly drawn: Map<FaultKind, number>;

  constructor(private readonly kinds: readonly FaultKind[] = FAULT_KINDS) {
    this.drawn = new Map(kinds.map((kind) => [kind, 0]));
  }

  add(kind: FaultKind): void {
    this.drawn.set(kind, (this.drawn.get(kind) ?? 0) + 1);
  }

  get(kind: FaultKind): number {
    return this.drawn.get(kind) ?? 0;
  }

  line(): string {
    return this.kinds.map((kind) => `${kind}=${this.get(kind)}`).join(' ');
  }
}
