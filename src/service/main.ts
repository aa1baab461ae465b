/**
 * `npm run service`: the reference service on loopback. Prints one JSON line describing it on stdout so
 * programs can drive it; logs go to stderr; SIGINT, SIGTERM and SIGHUP stop the service and its chain.
 */
import { parseArgs } from 'node:util';
import { startStack } from './stack';
import { seedSizeOptions } from './store/seed';
import { BASE_BLOCK_TIME_SECONDS } from './chain/demo-chain';
import { usdNumberToUnits } from '../shared/money';
import { parsePublicUrl, PUBLIC_URL_ENV } from './public-url';

const USAGE = `usage: npm run service -- [--data-dir DIR] [--seed-size HANDLES[:REPORTS]] [--unit-price USD]
                         [--public-url URL]
  PORT (env) picks the HTTP port; default 0 = any free port.
  --public-url (or INTEL_DESK_SERVICE_PUBLIC_URL) is the origin desks reach the service at behind a gateway,
  such as https://intel.example.com: every challenge names it (sign-in needs it). Default: the listen address.
  --seed-size 100000:1000000 seeds 100k handles with about 1M small reports (for benchmarks).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'seed-size': { type: 'string' },
      'unit-price': { type: 'string' },
      'public-url': { type: 'string' },
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
  if (unitPriceUsd !== undefined && !(unitPriceUsd > 0 && usdNumberToUnits(unitPriceUsd) !== null))
    throw new Error('--unit-price must be a positive number of USD with at most 6 decimals');
  const seed = values['seed-size'] ? seedSizeOptions(values['seed-size']) : undefined;
  // An empty variable is an unset one, as `export INTEL_DESK_SERVICE_PUBLIC_URL=` means.
  const publicText = values['public-url'] ?? (process.env[PUBLIC_URL_ENV] || undefined);
  const publicUrl =
    publicText === undefined
      ? undefined
      : parsePublicUrl(publicText, values['public-url'] === undefined ? PUBLIC_URL_ENV : '--public-url');
  const started = Date.now();
  const starting = startStack({
    port,
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(seed ? { seed } : {}),
    ...(unitPriceUsd !== undefined ? { unitPriceUsd } : {}),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });

  // Handlers go in before the chain starts: a signal during a long seed must still stop anvil, so it waits
  // for startup to finish (or fail, which stops the chain itself) and then stops everything.
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second signal while stopping: leave now; the chain's exit hook still kills anvil.
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`${signal}: stopping the service and its chain\n`);
    starting
      .then((stack) => stack.stop())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`stop failed: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exit(1);
        },
      );
  };
  // SIGHUP too: a closed terminal must not leave the chain running.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));

  const stack = await starting;
  if (stopping) return;
  process.stdout.write(
    `${JSON.stringify({
      baseUrl: stack.baseUrl,
      publicUrl: stack.publicUrl,
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
    `service ready at ${stack.baseUrl}${stack.publicUrl === stack.baseUrl ? '' : `, reached at ${stack.publicUrl}`} (chain ${stack.rpcUrl}, a block every ${BASE_BLOCK_TIME_SECONDS} s) in ${Date.now() - started} ms\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `service failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
