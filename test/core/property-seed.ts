/**
 * Property tests draw the same inputs on every run: a fixed seed per property, or FC_SEED for all of them
 * (to explore, or to replay a failure). A failure names the seed and the command that replays it.
 */
import path from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/** The suite's seed when a property names none. */
const DEFAULT_SEED = 20_261_125;

/** FC_SEED when set (a 32-bit integer), else the property's own default. */
export function propertySeed(fallback = DEFAULT_SEED): number {
  const raw = process.env['FC_SEED'];
  if (raw === undefined || raw.trim() === '') return fallback;
  const seed = Number(raw);
  if (!Number.isInteger(seed) || Math.abs(seed) > 2 ** 31) {
    throw new Error(`FC_SEED=${raw} is not a 32-bit integer`);
  }
  return seed;
}

function replayMessage<T>(details: fc.RunDetails<T>): string {
  const testPath = expect.getState().testPath;
  const file = testPath ? path.relative(process.cwd(), testPath) : '<test file>';
  return (
    `${fc.defaultReportMessage(details)}\n` +
    `Property failed with seed ${details.seed}. Replay it: FC_SEED=${details.seed} npx vitest run ${file}`
  );
}

/** fast-check parameters: `numRuns`, the seed (FC_SEED overrides `seed`), and a failure that names it. */
export function seeded<T>(numRuns: number, seed?: number): fc.Parameters<T> {
  return {
    numRuns,
    seed: propertySeed(seed),
    reporter: (details) => {
      if (!details.failed) return;
      console.error(`fast-check seed ${details.seed} (FC_SEED=${details.seed})`);
      throw new Error(replayMessage(details));
    },
  };
}
