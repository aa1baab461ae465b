/** Timing helpers for the benchmarks: wall-clock samples, percentiles, bounded concurrent loops. */
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
