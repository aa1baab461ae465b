/** Timing helpers for the benchmarks: wall-clock samples, percentiles, bounded concurrent loops. */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
export interface Section {
  name: string;
  run(): Promise<Record<string, number | string>>;
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function timeMs(action: () => void): number {
  const start = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function timeMsAsync(action: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await action();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs `task` from `concurrency` workers until `durationMs` has passed; returns completed calls per second. */
export async function throughput(
  task: () => Promise<void>,
  concurrency: number,
  durationMs: number,
): Promise<number> {
  const deadline = Date.now() + durationMs;
  let completed = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await task();
      completed++;
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return completed / (Number(process.hrtime.bigint() - start) / 1e9);
}

/**
 * Nanoseconds this thread has waited for a CPU while ready to run (Linux's schedstat), or null elsewhere. On a
 * machine other processes keep busy, a timer fires late by that wait too, though the thread was not busy.
 */
function runQueueWaitNs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]);
  } catch {
    return null;
  }
}

/**
 * The longest time this thread could not run a 1 ms timer: a blocked loop fires it late by the length of
 * the block. monitorEventLoopDelay alone misses a block that starts and ends before its first sample.
 * `stallLessWaitMs`: the longest such gap less the time the thread spent in it waiting for a CPU other
 * processes held (on Linux; else equal to `stallMs`): what this thread's own work and I/O held it.
 */
export async function longestStall(
  action: () => Promise<unknown>,
): Promise<{ stallMs: number; stallLessWaitMs: number; ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let lastWait = runQueueWaitNs();
  let longest = 0;
  let longestLessWait = 0;
  const sample = () => {
    const now = performance.now();
    const wait = runQueueWaitNs();
    const gap = now - last - 1;
    longest = Math.max(longest, gap);
    const waited = wait !== null && lastWait !== null ? (wait - lastWait) / 1e6 : 0;
    longestLessWait = Math.max(longestLessWait, gap - waited);
    last = now;
    lastWait = wait;
  };
  const probe = setInterval(sample, 1);
  histogram.enable();
  const ms = await timeMsAsync(action);
  sample();
  histogram.disable();
  clearInterval(probe);
  const stallMs = Math.max(longest, histogram.max / 1e6);
  return { stallMs, stallLessWaitMs: lastWait === null ? stallMs : longestLessWait, ms };
}
