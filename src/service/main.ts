/**
 * `npm run service`: the reference service on loopback. Prints one JSON line describing it on stdout so
 * programs can drive it; logs go to stderr; SIGINT/SIGTERM stop the service and its chain.
 */
import { parseArgs } from 'node:util';
import { startStack, type StackOptions } from './stack';

const USAGE = `usage: npm run service -- [--data-dir DIR] [--seed-size HANDLES[:REPORTS]] [--unit-price USD]
  PORT (env) picks the HTTP port; default 0 = any free port.
  --seed-size 100000:1000000 seeds 100k handles with about 1M small reports (for benchmarks).`;

function seedFromSize(size: string): StackOptions['seed'] {
  const match = /^(\d+)(?::(\d+))?$/.exec(size);
  if (!match) throw new Error(`--seed-size wants HANDLES or HANDLES:REPORTS, not "${size}"`);
  const handles = Number(match[1]);
  if (handles < 1) throw new Error('--seed-size needs at least one handle');
  if (match[2] === undefined) return { handles };
  const average = Math.max(1, Math.round(Number(match[2]) / handles));
  return { handles, minReportsPerHandle: 1, maxReportsPerHandle: average * 2 - 1, compact: true };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'seed-size': { type: 'string' },
      'unit-price': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const port = Number(process.env['PORT'] ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be 0-65535, not ${process.env['PORT']}`);
  const unitPriceUsd = values['unit-price'] === undefined ? undefined : Number(values['unit-price']);
  if (unitPriceUsd !== undefined && !(unitPriceUsd > 0))
    throw new Error('--unit-price must be a positive number');
  const started = Date.now();
  const stack = await startStack({
    port,
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(values['seed-size'] ? { seed: seedFromSize(values['seed-size']) } : {}),
    ...(unitPriceUsd !== undefined ? { unitPriceUsd } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(
    `${JSON.stringify({
      baseUrl: stack.baseUrl,
      rpcUrl: stack.rpcUrl,
      chainId: stack.chainId,
      asset: stack.asset,
      payTo: stack.payTo,
      unitPriceUsd: stack.unitPriceUsd,
      buyerKeys: stack.buyerKeys,
      librarySecret: stack.librarySecret,
    })}\n`,
  );
  process.stderr.write(
    `service ready at ${stack.baseUrl} (chain ${stack.rpcUrl}) in ${Date.now() - started} ms\n`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: stopping the service and its chain\n`);
    stack.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `service failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
