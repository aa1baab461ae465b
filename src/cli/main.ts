/**
 * intel-desk: the command line over core. `npm run desk -- <command>`; `--help` lists the commands.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDeskCore, type DeskCore } from '../core';
import { output, reportError, UsageError, type Output } from './output';
import { buy, list, menu, quote } from './commands-catalog';
import { exportReport, library, purchases, read, search } from './commands-library';
import { exportFormatSchema } from '../shared/rpc';
import { bundleGet, bundlePut } from './commands-bundle';
import { prepareSigner, sessionKey, wallet } from './commands-wallet';

const HELP = `intel-desk <command> [options]

  list                                   the free shelf of handles
  menu <handle>                          a handle's free report menu (owned reports marked)
  quote <handle> --all | --from D --to D | --ids a,b | --missing
                                         the live price from the service's 402 challenge; reports you
                                         own are left out unless --include-owned (or --rebuy); dates are
                                         ISO: 2026-10-01 (whole day) or 2026-10-01T08:30:00Z
  buy <handle> (same selection) --yes    pay and store the reports (--over-cap, --accept-payee)
  library [--handle h]                   everything you own
  search <text>                          full-text search of your library
  read <reportId>                        a report as text
  export <reportId> --format json|md|pdf a report to stdout (pdf: redirect it to a file)
  purchases                              purchase history (in-doubt purchases are checked first)
  wallet status                          the signer's address (and USDC balance when the chain is known)
  wallet import --key-file F | --keystore F.json
                                         store a key, sealed with the passphrase in $INTEL_DESK_PASSPHRASE
                                         (a JSON keystore's own password: $INTEL_DESK_KEYSTORE_PASSWORD)
  bundle get <handle> | bundle put <handle> <file.json>

Options: --json, --service URL, --data-dir DIR, --rpc URL, --demo, --timeout S (one request; default 20)
Signer:  --key-file F (a key for this run only), else the stored keystore, unlocked with the passphrase in
         $INTEL_DESK_PASSPHRASE (or the variable named by --passphrase-env VAR)
Environment: INTEL_DESK_SERVICE_URL, INTEL_DESK_DATA_DIR, INTEL_DESK_PRIVATE_KEY, INTEL_DESK_RPC_URL,
             INTEL_DESK_DEMO=1, INTEL_DESK_LIBRARY_SECRET, INTEL_DESK_PASSPHRASE, INTEL_DESK_TIMEOUT
Exit codes: 0 ok, 2 usage, 3 payment refused (safety rule, cap, wallet), 4 service error or failed
purchase, 5 network error or a purchase left in doubt, 1 other.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  service: { type: 'string' },
  'data-dir': { type: 'string' },
  rpc: { type: 'string' },
  timeout: { type: 'string' },
  demo: { type: 'boolean' },
  'key-file': { type: 'string' },
  'passphrase-env': { type: 'string' },
  keystore: { type: 'string' },
  'keystore-password-env': { type: 'string' },
  all: { type: 'boolean' },
  from: { type: 'string' },
  to: { type: 'string' },
  ids: { type: 'string' },
  missing: { type: 'boolean' },
  'include-owned': { type: 'boolean' },
  rebuy: { type: 'boolean' },
  yes: { type: 'boolean' },
  'over-cap': { type: 'boolean' },
  'accept-payee': { type: 'boolean' },
  handle: { type: 'string' },
  format: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function timeoutMs(values: Values): number | null {
  const raw = values.timeout ?? process.env['INTEL_DESK_TIMEOUT'];
  if (raw === undefined) return null;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
    throw new UsageError('--timeout is a number of seconds between 0 and 600');
  return Math.round(seconds * 1000);
}

async function openDesk(values: Values): Promise<DeskCore> {
  const rpcUrl = values.rpc ?? process.env['INTEL_DESK_RPC_URL'];
  const timeout = timeoutMs(values);
  const serviceUrl = values.service ?? process.env['INTEL_DESK_SERVICE_URL'];
  const desk = await createDeskCore({
    dataDir: values['data-dir'] ?? process.env['INTEL_DESK_DATA_DIR'] ?? path.join(homedir(), '.intel-desk'),
    demo: values.demo ?? process.env['INTEL_DESK_DEMO'] === '1',
    ...(serviceUrl ? { serviceUrl } : {}),
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(timeout ? { timeoutMs: timeout } : {}),
  });
  const key = sessionKey(values);
  if (key) desk.context.wallet.useKeyForSession(key);
  const secret = process.env['INTEL_DESK_LIBRARY_SECRET'];
  if (secret) desk.context.setLibrarySecret(secret);
  return desk;
}

function need(positionals: string[], index: number, what: string): string {
  const value = positionals[index];
  if (!value) throw new UsageError(`missing ${what}; see --help`);
  return value;
}

async function run(desk: DeskCore, out: Output, values: Values, [command, ...args]: string[]): Promise<void> {
  switch (command) {
    case 'list':
      return list(desk, out);
    case 'menu':
      return menu(desk, out, need(args, 0, 'handle'));
    case 'quote':
      await quote(desk, out, need(args, 0, 'handle'), values);
      return;
    case 'buy':
      await prepareSigner(desk, values);
      return buy(desk, out, need(args, 0, 'handle'), values);
    case 'library':
      return library(desk, out, values.handle);
    case 'search':
      return search(desk, out, args.join(' ') || need(args, 0, 'search text'));
    case 'read':
      return read(desk, out, need(args, 0, 'report id'));
    case 'export': {
      const format = exportFormatSchema.safeParse(values.format ?? 'json');
      if (!format.success) throw new UsageError('--format is json, md or pdf');
      return exportReport(desk, out, need(args, 0, 'report id'), format.data);
    }
    case 'purchases':
      return purchases(desk, out);
    case 'wallet':
      return wallet(desk, out, values, need(args, 0, 'wallet action'));
    case 'bundle': {
      const action = need(args, 0, 'bundle action (get or put)');
      if (action === 'get') return bundleGet(desk, need(args, 1, 'handle'));
      if (action === 'put')
        return bundlePut(desk, out, need(args, 1, 'handle'), need(args, 2, 'bundle file'));
      throw new UsageError('bundle takes get or put');
    }
    default:
      throw new UsageError(`unknown command "${command ?? ''}"; see --help`);
  }
}

/** What start-up found that the person must know, whatever the command (on stderr). */
async function warnAtStart(desk: DeskCore, command: string | undefined): Promise<void> {
  const recovered = desk.context.recovered;
  if (recovered) {
    process.stderr.write(
      `intel-desk: the library database was unusable (${recovered.reason}); it was moved to ${recovered.path} and a new one started.\n`,
    );
  }
  if (command !== 'purchases') await warnInDoubt(desk);
}

/** Purchases reconciliation could not settle at start are shown whatever the command. */
async function warnInDoubt(desk: DeskCore): Promise<void> {
  const { purchases } = await desk.handlers['purchases.list']({});
  const open = purchases.filter((p) => p.state === 'in_doubt');
  if (open.length === 0) return;
  const waits = [...new Set(open.map((p) => p.waitingFor?.summary).filter(Boolean))].join(' ');
  process.stderr.write(
    `intel-desk: ${open.length} purchase(s) in doubt, never paid again automatically. ${waits} See \`intel-desk purchases\`.\n`,
  );
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return reportError(new UsageError((error as Error).message), process.argv.includes('--json'));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${HELP}\n`);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  const out = output(values.json ?? false);
  let desk: DeskCore | null = null;
  try {
    desk = await openDesk(values);
    await warnAtStart(desk, positionals[0]);
    await run(desk, out, values, positionals);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportError(error, out.json);
  } finally {
    await desk?.close();
  }
}

process.exitCode = await main();
