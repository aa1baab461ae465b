/**
 * A testing aid: INTEL_DESK_CLOCK_OFFSET_MS moves the desk's clock (core's `now`) by a few minutes, so a
 * test that runs core in another process or thread (the CLI, the web host's worker) can keep a purchase and
 * the check of "today" on the same local day. The hosts read the variable; core only gets a clock.
 *
 * The bound is the widest payment window a quote may ask for (MAX_VALIDITY_SECONDS, 300 s). The desk refuses
 * to sign once its clock is further from the service's and the chain's than that window less the minute a
 * settlement needs (about four minutes, chain-clock.ts), so an offset past the bound could never sign; the
 * tests' own offsets (test/core/clock.ts) stay under 3.5 minutes.
 */
import { MAX_VALIDITY_SECONDS } from './quote';

export const CLOCK_OFFSET_ENV = 'INTEL_DESK_CLOCK_OFFSET_MS';
export const MAX_CLOCK_OFFSET_MS = MAX_VALIDITY_SECONDS * 1000;

export type ClockOffset = { ok: true; offsetMs: number } | { ok: false; message: string };

/** The offset the variable holds: unset or empty is 0; anything but an integer within the bound is refused. */
export function parseClockOffset(raw: string | undefined): ClockOffset {
  if (raw === undefined || raw === '') return { ok: true, offsetMs: 0 };
  const offsetMs = /^[+-]?\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(offsetMs) || Math.abs(offsetMs) > MAX_CLOCK_OFFSET_MS) {
    return {
      ok: false,
      message: `${CLOCK_OFFSET_ENV} (a testing aid) must be a whole number of milliseconds from -${MAX_CLOCK_OFFSET_MS} to ${MAX_CLOCK_OFFSET_MS}, not "${raw.slice(0, 40)}"`,
    };
  }
  return { ok: true, offsetMs };
}

/** Core's `now` for an offset: the real clock when it is 0. */
export function offsetClock(offsetMs: number): () => number {
  return offsetMs === 0 ? () => Date.now() : () => Date.now() + offsetMs;
}
