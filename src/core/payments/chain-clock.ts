/**
 * Dates an authorization for the clocks that judge it (payment safety rule 7, docs/ARCHITECTURE.md). Three clocks matter: the
 * desk's own (its ledger, the signature deadline, the expiry it reconciles by), the service's (it checks the
 * window before settling) and the chain's (the token checks the window at the latest block when the
 * settlement is simulated, and at the next block when it is mined). The window starts at the earliest of them
 * and closes at most the quote's validity after it, so it never reaches further than that past any clock;
 * when the clocks are so far apart that too little of the window is left on the latest one, nothing is
 * signed.
 */
import type { PublicClient } from 'viem';
import { DeskError } from '../base/errors';
import { sampleFromSeconds, type ClockSample, type ClockSource } from '../client/clock-sample';

export interface PaymentWindow {
  validAfter: bigint;
  validBefore: bigint;
}

/** How far before the earliest clock validAfter lies; the token wants block.timestamp strictly after it. */
export const VALID_AFTER_LEAD_SECONDS = 60;
/** Time the window must still have on the latest clock: to sign, send, settle and confirm. */
export const MIN_REMAINING_SECONDS = 60;

/** The chain's clock from its latest block's timestamp (seconds), read by an RPC call over [sentAt, receivedAt]. */
export function chainSample(blockTimestamp: bigint, sentAt: number, receivedAt: number): ClockSample {
  return sampleFromSeconds('chain', Number(blockTimestamp), sentAt, receivedAt);
}

/**
 * The chain's clock from its latest block, or null when the RPC cannot tell: unreachable, or serving another
 * chain than the payment's. The RPC is optional (the service's clock still dates the payment), so its failure
 * never blocks a purchase.
 */
export async function readChainClock(
  client: PublicClient,
  chainId: number,
  now: () => number,
): Promise<ClockSample | null> {
  try {
    const sentAt = now();
    const [served, block] = await Promise.all([client.getChainId(), client.getBlock({ blockTag: 'latest' })]);
    const receivedAt = now();
    return served === chainId ? chainSample(block.timestamp, sentAt, receivedAt) : null;
  } catch {
    return null;
  }
}

const CLOCK_NAMES: Record<ClockSource | 'desk', string> = {
  desk: "this computer's clock",
  service: "the service's clock",
  chain: "the chain's latest block",
};

function advice(off: ClockSource | 'desk', ahead: boolean): string {
  if (off === 'desk') return "Set this computer's clock right (automatic date and time) and buy again.";
  if (off === 'service')
    return "The service's clock is wrong, so no payment to it can be dated; buy again once it is set right.";
  return ahead
    ? "The chain's clock runs ahead of the service's; buy again once they agree."
    : 'The chain has made no block for that long, or its RPC node lags; buy again once it has caught up.';
}

function duration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return rest === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${rest} s`;
}

interface Clock {
  source: ClockSource | 'desk';
  low: number;
  high: number;
}

const middle = (clock: Clock) => (clock.low + clock.high) / 2;

/**
 * Which clock is off. With a third clock, of the earliest and the latest the one farther from it (two clocks
 * that agree outvote the third); with only the service's beside the desk's, the desk's, the one a person can
 * set right.
 */
function outlier(clocks: Clock[], earliest: Clock, latest: Clock): { clock: Clock; ahead: boolean } {
  const third = clocks.find((clock) => clock !== earliest && clock !== latest);
  if (!third) {
    const desk = latest.source === 'desk' ? latest : earliest;
    return { clock: desk, ahead: desk === latest };
  }
  return middle(third) - middle(earliest) > middle(latest) - middle(third)
    ? { clock: earliest, ahead: false }
    : { clock: latest, ahead: true };
}

function skewMessage(
  clocks: Clock[],
  earliest: Clock,
  latest: Clock,
  validitySeconds: number,
  needed: number,
) {
  const off = outlier(clocks, earliest, latest);
  const others = clocks.filter((clock) => clock !== off.clock).map((clock) => CLOCK_NAMES[clock.source]);
  const name = CLOCK_NAMES[off.clock.source];
  return (
    `${name.charAt(0).toUpperCase()}${name.slice(1)} is ${duration(latest.high - earliest.low)} ` +
    `${off.ahead ? 'ahead of' : 'behind'} ${others.join(' and ')}; a payment window of ${validitySeconds} s ` +
    `cannot be valid on all of them with ${needed} s to spare. Nothing was signed. ` +
    advice(off.clock.source, off.ahead)
  );
}

/**
 * The validity window for a payment signed now (deskNow, ms), valid on every sampled clock. Throws a refused
 * DeskError `clock_skew` when the clocks disagree by more than the window can absorb.
 */
export function paymentWindow(
  deskNow: number,
  samples: ClockSample[],
  validitySeconds: number,
): PaymentWindow {
  const clocks: Clock[] = [
    { source: 'desk', low: deskNow, high: deskNow },
    ...samples.map((s) => ({ source: s.source, low: deskNow + s.lowMs, high: deskNow + s.highMs })),
  ];
  const earliest = clocks.reduce((a, b) => (b.low < a.low ? b : a));
  const latest = clocks.reduce((a, b) => (b.high > a.high ? b : a));
  const start = Math.floor(earliest.low / 1000);
  const validBefore = start + validitySeconds;
  const remaining = validBefore - Math.ceil(latest.high / 1000);
  const needed = Math.min(MIN_REMAINING_SECONDS, Math.floor(validitySeconds / 2));
  if (remaining < needed) {
    throw new DeskError(
      'clock_skew',
      skewMessage(clocks, earliest, latest, validitySeconds, needed),
      'refused',
      {
        earliest: earliest.source,
        latest: latest.source,
        apartMs: latest.high - earliest.low,
        absorbableMs: (validitySeconds - needed) * 1000,
      },
    );
  }
  return {
    validAfter: BigInt(Math.max(0, start - VALID_AFTER_LEAD_SECONDS)),
    validBefore: BigInt(validBefore),
  };
}
