/**
 * The desk's clock for tests that compare a purchase with "today" or "this month" (spend, the daily cap,
 * answer-lost): the real time, except that a run which would straddle local midnight starts on the far side
 * of it instead. The desk's day then cannot change between a purchase and the check that counts it.
 *
 * The service and the chain keep the real clock, and the desk refuses to sign once its clock is about four
 * minutes from theirs (chain-clock.ts), so the clock moves ahead by at most RUN_MS.
 *
 * INTEL_DESK_TEST_CLOCK=HH:MM:SS[.s] makes the clock read that local time when it is made (for example
 * 23:59:59.9, to prove a file passes across midnight). It may be at most two minutes from the real local
 * time: choose TZ so that it is (at 14:00 UTC, Australia/Brisbane reads midnight).
 */
const RUN_MS = 90_000;
const MAX_SHIFT_MS = 120_000;
const DAY_MS = 86_400_000;

function nextLocalMidnight(ms: number): number {
  const day = new Date(ms);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime();
}

/** How far INTEL_DESK_TEST_CLOCK moves the wall clock from the real one (0 when it is not set). */
function wallShift(): number {
  const wanted = process.env['INTEL_DESK_TEST_CLOCK'];
  if (!wanted) return 0;
  const match = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)$/.exec(wanted);
  if (!match) throw new Error(`INTEL_DESK_TEST_CLOCK=${wanted} is not HH:MM:SS[.s]`);
  const now = Date.now();
  const today = new Date(now);
  const at = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  const offset = (Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3])) * 1000;
  // The nearest such moment: yesterday's, today's or tomorrow's.
  const shift = [at - DAY_MS, at, at + DAY_MS]
    .map((day) => day + offset - now)
    .reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a));
  if (Math.abs(shift) > MAX_SHIFT_MS) {
    throw new Error(
      `INTEL_DESK_TEST_CLOCK=${wanted} is ${Math.round(shift / 1000)} s from the local time now (TZ=${process.env['TZ'] ?? ''}); the service and the chain keep the real clock, so choose a TZ where it is less than ${MAX_SHIFT_MS / 1000} s away.`,
    );
  }
  return shift;
}

/**
 * How far sameDayClock moves the desk's clock from the real one, decided now. For a desk in another process
 * or thread (the CLI, the web host's worker), pass it as INTEL_DESK_CLOCK_OFFSET_MS, and read "today" in the
 * test with the same offset.
 */
export function sameDayOffset(): number {
  const shift = wallShift();
  const start = Date.now() + shift;
  const untilMidnight = nextLocalMidnight(start) - start;
  return shift + (untilMidnight < RUN_MS ? untilMidnight : 0);
}

/** A clock for one test file's desk, made when the desk is: its local day does not change for RUN_MS. */
export function sameDayClock(): () => number {
  const offset = sameDayOffset();
  return () => Date.now() + offset;
}
