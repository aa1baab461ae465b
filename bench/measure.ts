/** Timing helpers for the benchmarks: wall-clock samples, percentiles, bounded concurrent loops. */
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
 * The longest time this thread could not run a 1 ms timer: a blocked loop fires it late by the length of
 * the block. monitorEventLoopDelay alone misses a block that starts and ends before its first sample.
 */
export async function longestStall(action: () => Promise<unknown>): Promise<{ stallMs: number; ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  histogram.enable();
  const ms = await timeMsAsync(action);
  longest = Math.max(longest, performance.now() - last - 1);
  histogram.disable();
  clearInterval(probe);
  return { stallMs: Math.max(longest, histogram.max / 1e6), ms };
}
