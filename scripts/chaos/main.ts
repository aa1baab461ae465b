/**
 * `npm run chaos -- [--purchases N] [--seed S] [--minutes M] [--shared | --team]`: purchases under random
 * faults, then the proof that the ledgers equal the chain. Exits 1 with the seed that reproduces any violation.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { runChaos } from './driver';
import { randomSeed } from './prng';
import { reportLines } from './report';

const USAGE = `usage: npm run chaos -- [--purchases N] [--seed S] [--minutes M] [--shared | --team]
  --purchases  purchases over all desks (default 200, at most 5000)
  --seed       the fault source's seed, 0 to 4294967295 (default: random, printed)
  --minutes    stop starting purchases after this long (default 30, at most 120)
  --shared     three desk processes on one data folder, racing for the same reports and caps
  --team       three desks of one team on a throwaway PostgreSQL cluster, with the team database's faults`;

const argsSchema = z.object({
  purchases: z.coerce.number().int().min(2).max(5000).default(200),
  seed: z.coerce.number().int().min(0).max(0xffffffff).optional(),
  minutes: z.coerce.number().positive().max(120).default(30),
});

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      purchases: { type: 'string' },
      seed: { type: 'string' },
      minutes: { type: 'string' },
      shared: { type: 'boolean' },
      team: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(
      `${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n')}\n${USAGE}\n`,
    );
    return 2;
  }
  if (values.shared && values.team) {
    process.stderr.write(`--shared and --team are two different runs: give one.\n${USAGE}\n`);
    return 2;
  }
  const seed = parsed.data.seed ?? randomSeed();
  const shape = values.shared
    ? ', three processes on one folder'
    : values.team
      ? ', three desks of one team'
      : '';
  process.stderr.write(
    `chaos: seed ${seed}, ${parsed.data.purchases} purchases, at most ${parsed.data.minutes} min${shape}\n`,
  );
  const result = await runChaos({
    purchases: parsed.data.purchases,
    seed,
    minutes: parsed.data.minutes,
    shared: values.shared ?? false,
    team: values.team ?? false,
    log: (line) => process.stderr.write(`chaos: ${line}\n`),
  });
  process.stdout.write(`${reportLines(result).join('\n')}\n`);
  return result.violations === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `chaos run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
