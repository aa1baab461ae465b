/**
 * intel-desk: the command line over core. `npm run desk -- <command>`; `--help` lists the commands.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
// Only what `--help` and argument errors need is imported up front; core, its packages and each command's
// module load when a command runs, so `intel-desk --help` starts about as fast as Node itself.
import type { DeskCore } from '../core';
import { DeskError } from '../core/errors';
import { count, output, reportError, UsageError, type Output } from './output';
import { didYouMean } from './suggest';

const HELP = `intel-desk <command> [options]

  list                                   the free shelf of handles
  menu <handle>                          a handle's free report menu (owned reports marked)
  quote <handle> --all | --from D --to D | --ids a,b | --missing
                                         the live price from the service's 402 challenge; reports you
                                         own are left out unless --include-owned (or --rebuy); dates are
                                         ISO: 2026-10-01 (whole day) or 2026-10-01T08:30:00Z
  buy <handle> (same selection) --yes    pay and store the reports (--over-cap, --accept-payee)
  library [--handle h] [--limit N]       everything you own (newest first; --limit: only the first N)
  search <query>                         search your library: words, "phrases", prefix*, handle:,
                                         model:, topic:, tag:, note:, after:/before:YYYY-MM-DD, posts>100,
                                         sentiment<0, AND/OR/NOT, ( ) (docs/search.md); --handle h
  tag <reportId> add|remove <tag>        your own tags on an owned report (kept when bought again)
  note <reportId> [text | --clear]       show, set or clear your note on an owned report
  read <reportId>                        a report as text
  export <reportId> --format json|md|pdf a report to stdout (pdf: redirect it to a file)
  diff <reportA> <reportB>               how the subject changed: analytics, topics, sentiment and a
                                         word diff of the narrative (either order; --json for data)
  purchases [--csv [--from D] [--to D]]  purchase history (in-doubt purchases are checked first); --csv
                                         writes it as CSV for an expense report
  spend [--days N]                       spent today, this month and in all, by handle and by day (in-doubt
                                         purchases count in full, as for the daily cap; last 30 days)
  budget <handle> <usd> | --clear        a handle's monthly budget: a purchase over it needs --over-cap
  receipt <purchaseId> [--verify] [--format json|pdf]
                                         a purchase's evidence: challenge, authorization, transaction,
                                         payer, payee, amount and a SHA-256 of each delivered report;
                                         --verify checks it against the token's events on chain
  wallet status                          the signer's address (and USDC balance when the chain is known)
  wallet import --key-file F | --keystore F.json [--replace]
                                         store a key, sealed with the passphrase in $INTEL_DESK_PASSPHRASE;
                                         over a wallet of another address only with --replace (the old
                                         keystore is kept in backups/ in the data folder)
                                         (12+ characters, hard to guess: say, four uncommon words)
                                         (a JSON keystore's own password: $INTEL_DESK_KEYSTORE_PASSWORD)
  backup                                 copy the library into backups/ in the data folder now (copies are
                                         also taken after purchases, daily and before an upgrade)
  restore --from FILE                    replace the library with a backup's (checked first); the library
                                         as it was is kept in backups/
  restore                                sign in to the service with the wallet and download again, free,
                                         every report it bought there (checked against receipts held)
  bundle get <handle> | bundle put <handle> <file.json>
                                         a handle's full dossier (needs the library secret)
  mcp [--allow-spend USD]                an MCP server on stdio for AI assistants (README): it can search,
                                         read and quote; purchases it asks for wait for your approval, in
                                         the client up to USD this session (default 0: only \`approve\`)
  approve <id> [--decline] | --list      approve (pay, through every cap) or decline a purchase an
                                         assistant asked for; --list shows those waiting
  secret set | clear | status            store the library secret for the selected service (read from
                                         $INTEL_DESK_LIBRARY_SECRET or stdin), forget it, or show it

Options: --json, --service URL, --data-dir DIR, --rpc URL, --demo, --timeout S (one request; default 20)
Library: ~/.intel-desk unless --data-dir DIR; the app's is another folder (npm start's demo: .data/demo
         in the project), which --data-dir reads too
Signer:  --key-file F (a key for this run only), else the stored keystore, unlocked with the passphrase in
         $INTEL_DESK_PASSPHRASE (or the variable named by --passphrase-env VAR)
Environment: INTEL_DESK_SERVICE_URL, INTEL_DESK_DATA_DIR, INTEL_DESK_PRIVATE_KEY, INTEL_DESK_RPC_URL,
             INTEL_DESK_DEMO=1, INTEL_DESK_DEMO_ASSET (the demo token: the only one paid on the demo chain),
             INTEL_DESK_PASSPHRASE, INTEL_DESK_TIMEOUT,
             INTEL_DESK_LIBRARY_SECRET (used for that command only; \`secret set\` stores one), sent
             only to the saved service or to INTEL_DESK_LIBRARY_SECRET_ORIGIN,
             INTEL_DESK_CLOCK_OFFSET_MS (testing aid: ms added to the desk's clock, at most ±300000)
Exit codes: 0 ok, 2 usage, 3 payment refused (safety rule, cap, wallet), 4 service error or failed
purchase, 5 network error or a purchase left in doubt, 6 bundle put refused because the dossier changed
on the service since it was fetched, 1 other.`;

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
  csv: { type: 'boolean' },
  verify: { type: 'boolean' },
  days: { type: 'string' },
  limit: { type: 'string' },
  clear: { type: 'boolean' },
  replace: { type: 'boolean' },
  'allow-spend': { type: 'string' },
  list: { type: 'boolean' },
  decline: { type: 'boolean' },
} as const;

const COMMANDS = [
  'list',
  'menu',
  'quote',
  'buy',
  'library',
  'search',
  'tag',
  'note',
  'read',
  'export',
  'diff',
  'purchases',
  'spend',
  'budget',
  'receipt',
  'wallet',
  'backup',
  'restore',
  'bundle',
  'secret',
  'mcp',
  'approve',
] as const;

/** Node's parser speaks of itself ("place it at the end of the command after '--'"); this names the flag. */
function argumentError(error: unknown): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^' =]+)/.exec(message)?.[1] ?? '';
  const name = flag.replace(/^-+/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flags = Object.keys(OPTIONS).map((option) => `--${option}`);
    return new UsageError(`unknown option ${flag}.${didYouMean(`--${name}`, flags)} See --help.`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name in OPTIONS) {
    const option = OPTIONS[name as keyof typeof OPTIONS];
    return new UsageError(
      option.type === 'boolean'
        ? `--${name} is a switch and takes no value`
        : `--${name} needs a value (use --${name}=VALUE for a value that starts with a dash)`,
    );
  }
  return new UsageError(message);
}

const unknownCommand = (command: string) =>
  new UsageError(`unknown command "${command}".${didYouMean(command, COMMANDS)} See --help.`);

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function timeoutMs(values: Values): number | null {
  const raw = values.timeout ?? process.env['INTEL_DESK_TIMEOUT'];
  if (raw === undefined) return null;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
    throw new UsageError('--timeout is a number of seconds between 0 and 600');
  return Math.round(seconds * 1000);
}

/** The demo token's address from the environment; anything but an address is a usage error. */
function demoAsset(): `0x${string}` | null {
  const raw = process.env['INTEL_DESK_DEMO_ASSET'];
  if (raw === undefined || raw === '') return null;
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw))
    throw new UsageError(
      `INTEL_DESK_DEMO_ASSET must be a token address (0x and 40 hex digits), not "${raw.slice(0, 60)}"`,
    );
  return raw as `0x${string}`;
}

/** The desk's clock, moved by $INTEL_DESK_CLOCK_OFFSET_MS (a testing aid); out of range is a usage error. */
async function deskClock(): Promise<{ now?: () => number }> {
  const { CLOCK_OFFSET_ENV, offsetClock, parseClockOffset } = await import('../core/clock-offset');
  const offset = parseClockOffset(process.env[CLOCK_OFFSET_ENV]);
  if (!offset.ok) throw new UsageError(offset.message);
  return offset.offsetMs === 0 ? {} : { now: offsetClock(offset.offsetMs) };
}

async function openDesk(values: Values, command: string | undefined): Promise<DeskCore> {
  const rpcUrl = values.rpc ?? process.env['INTEL_DESK_RPC_URL'];
  if (rpcUrl !== undefined && !(URL.canParse(rpcUrl) && /^https?:$/.test(new URL(rpcUrl).protocol))) {
    throw new UsageError(
      `${values.rpc !== undefined ? '--rpc' : 'INTEL_DESK_RPC_URL'} must be an http:// or https:// URL, not "${rpcUrl.slice(0, 80)}"`,
    );
  }
  const timeout = timeoutMs(values);
  const serviceUrl = values.service ?? process.env['INTEL_DESK_SERVICE_URL'];
  const asset = demoAsset();
  const clock = await deskClock();
  const [{ createDeskCore }, { sessionKey }, { SECRET_ENV, secretOriginFromEnv }] = await Promise.all([
    import('../core'),
    import('./commands-wallet'),
    import('./commands-secret'),
  ]);
  const desk = await createDeskCore({
    dataDir: values['data-dir'] ?? process.env['INTEL_DESK_DATA_DIR'] ?? path.join(homedir(), '.intel-desk'),
    demo: values.demo ?? process.env['INTEL_DESK_DEMO'] === '1',
    ...(asset ? { demoAsset: asset } : {}),
    ...(serviceUrl ? { serviceUrl } : {}),
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(timeout ? { timeoutMs: timeout } : {}),
    ...clock,
  });
  const key = sessionKey(values);
  if (key) await desk.handlers['wallet.useSessionKey']({ privateKey: key });
  // For this command only; `secret set` is the one command that stores it.
  // Bound to the saved service or to $INTEL_DESK_LIBRARY_SECRET_ORIGIN: a run naming another service is refused
  // before anything is sent.
  const librarySecret = process.env[SECRET_ENV];
  if (librarySecret && command !== 'secret') {
    const boundTo = secretOriginFromEnv();
    try {
      await desk.handlers['settings.useSessionLibrarySecret']({
        secret: librarySecret,
        ...(boundTo === undefined ? {} : { boundTo }),
      });
    } catch (error) {
      await desk.close();
      throw error;
    }
  }
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
      return (await import('./commands-catalog')).list(desk, out);
    case 'menu':
      return (await import('./commands-catalog')).menu(desk, out, need(args, 0, 'handle'));
    case 'quote':
      await (await import('./commands-catalog')).quote(desk, out, need(args, 0, 'handle'), values);
      return;
    case 'buy': {
      const [{ prepareSigner }, { buy }] = await Promise.all([
        import('./commands-wallet'),
        import('./commands-catalog'),
      ]);
      const handle = need(args, 0, 'handle');
      const cannotSign = await prepareSigner(desk, values);
      return buy(desk, out, handle, values, cannotSign);
    }
    case 'library':
      return (await import('./commands-library')).library(desk, out, values.handle, values.limit);
    case 'search':
      return (await import('./commands-query')).search(
        desk,
        out,
        args.join(' ') || need(args, 0, 'search query'),
        values.handle,
      );
    case 'tag':
      return (await import('./commands-query')).tag(
        desk,
        out,
        need(args, 0, 'report id'),
        need(args, 1, 'add or remove'),
        need(args, 2, 'tag'),
      );
    case 'note':
      return (await import('./commands-query')).note(
        desk,
        out,
        need(args, 0, 'report id'),
        args.slice(1).join(' '),
        values.clear ?? false,
      );
    case 'read':
      return (await import('./commands-library')).read(desk, out, need(args, 0, 'report id'));
    case 'diff':
      return (await import('./commands-diff')).diff(
        desk,
        out,
        need(args, 0, 'first report id'),
        need(args, 1, 'second report id'),
      );
    case 'export': {
      const { exportFormatSchema } = await import('../shared/rpc');
      const format = exportFormatSchema.safeParse(values.format ?? 'json');
      if (!format.success) throw new UsageError('--format is json, md or pdf');
      return (await import('./commands-library')).exportReport(
        desk,
        out,
        need(args, 0, 'report id'),
        format.data,
      );
    }
    case 'purchases':
      if (values.csv)
        return (await import('./commands-receipt')).purchasesCsv(
          desk,
          (await import('./dates')).dateRange(values.from, values.to),
        );
      if (values.from !== undefined || values.to !== undefined)
        throw new UsageError('--from and --to go with --csv: purchases --csv --from D --to D');
      return (await import('./commands-library')).purchases(desk, out);
    case 'spend':
      return (await import('./commands-spend')).spend(desk, out, values.days);
    case 'budget':
      return (await import('./commands-spend')).budget(
        desk,
        out,
        need(args, 0, 'handle'),
        args[1],
        values.clear ?? false,
      );
    case 'receipt':
      return (await import('./commands-receipt')).receipt(desk, out, need(args, 0, 'purchase id'), {
        verify: values.verify ?? false,
        format: values.format,
      });
    case 'wallet':
      return (await import('./commands-wallet')).wallet(desk, out, values, need(args, 0, 'wallet action'));
    case 'backup':
      return (await import('./commands-backup')).backup(desk, out);
    case 'restore': {
      if (values.from === undefined) {
        const cannotSign = await (
          await import('./commands-wallet')
        ).prepareSigner(desk, values, { to: 'sign in', command: 'restore' });
        if (cannotSign) throw cannotSign;
      }
      return (await import('./commands-backup')).restore(desk, out, values.from);
    }
    case 'bundle': {
      const { bundleGet, bundlePut } = await import('./commands-bundle');
      const action = need(args, 0, 'bundle action (get or put)');
      if (action === 'get') return bundleGet(desk, need(args, 1, 'handle'));
      if (action === 'put')
        return bundlePut(desk, out, need(args, 1, 'handle'), need(args, 2, 'bundle file'));
      throw new UsageError(`bundle takes get or put.${didYouMean(action, ['get', 'put'])}`);
    }
    case 'secret':
      return (await import('./commands-secret')).secret(
        desk,
        out,
        need(args, 0, 'secret action (set, clear or status)'),
      );
    case 'mcp':
      return (await import('./commands-mcp')).mcp(
        desk,
        values,
        values['data-dir'] ?? process.env['INTEL_DESK_DATA_DIR'] ?? path.join(homedir(), '.intel-desk'),
      );
    case 'approve':
      return (await import('./commands-mcp')).approve(desk, out, values, args[0]);
    default:
      throw unknownCommand(command ?? '');
  }
}

/** Core's library-secret errors name the app's Settings; on the command line the remedy is a command. */
const cliRemedies = (
  SECRET_ENV: string,
  SECRET_ORIGIN_ENV: string,
): Record<string, (error: DeskError) => string> => ({
  library_damaged: (error) =>
    `The library file is damaged (${String(error.details['reason'])}). Run intel-desk again: the next run sets the file aside and puts the newest good backup in its place; \`intel-desk restore\` then brings back from the service what that backup lacks.`,
  library_secret_required: () =>
    `This needs the library secret: set ${SECRET_ENV} for this command, or store it with \`intel-desk secret set\`.`,
  library_secret_refused: () =>
    `The service refused the stored library secret: store the right one with \`intel-desk secret set\`, or set ${SECRET_ENV} for this command.`,
  library_secret_other_service: (error) =>
    `The stored library secret was entered for ${String(error.details['origin'])}, not this service: store this service's secret with \`intel-desk secret set\`, or set ${SECRET_ENV} for this command.`,
  library_secret_other_origin: (error) =>
    `${SECRET_ENV} is bound to ${String(error.details['origin'])} (${error.details['named'] === true ? `named by ${SECRET_ORIGIN_ENV}` : 'the saved service'}), and this run's service is ${String(error.details['service'])}: nothing was sent. To send it there, set ${SECRET_ORIGIN_ENV}=${String(error.details['service'])}; otherwise unset ${SECRET_ENV} for this command.`,
  library_secret_unreadable: () =>
    'The stored library secret cannot be unsealed here: store it again with `intel-desk secret set`, or forget it with `intel-desk secret clear`.',
  wallet_exists: (error) =>
    `A wallet is already set up here (${String(error.details['current'])}); importing ${String(error.details['incoming'])} would replace it, so nothing was changed. Add --replace to replace it (the current keystore is kept in the backups folder of the data folder).`,
  budget_unknown_handle: (error) =>
    error.message.replace(/against the Shelf\.$/, 'against `intel-desk list`.'),
  // The window confirms going over a cap or budget with a tick; here it is the --over-cap flag.
  ...Object.fromEntries(
    ['over_purchase_cap', 'over_daily_cap', 'over_handle_budget'].map((code) => [
      code,
      (error: DeskError) =>
        error.message.replace(/confirm again to go over it\.$/, 'add --over-cap to go over it.'),
    ]),
  ),
});

async function withCliRemedy(error: unknown): Promise<unknown> {
  if (!(error instanceof DeskError)) return error;
  const { SECRET_ENV, SECRET_ORIGIN_ENV } = await import('./commands-secret');
  const remedy = cliRemedies(SECRET_ENV, SECRET_ORIGIN_ENV)[error.code];
  return remedy ? new DeskError(error.code, remedy(error), error.kind, error.details) : error;
}

/** What start-up found that the person must know, whatever the command (on stderr). */
async function warnAtStart(desk: DeskCore, command: string | undefined): Promise<void> {
  const recovered = (await desk.handlers['app.info']({})).databaseRecovered;
  if (recovered?.restored) {
    const { restored } = recovered;
    process.stderr.write(
      `intel-desk: the library database was unusable (${recovered.reason}); it was moved to ${recovered.path}, and the newest good backup (${restored.file}, taken ${restored.takenAt}) was restored: ${count(restored.reports, 'report')} came back. Anything bought after that backup is not in it.\n`,
    );
  } else if (recovered) {
    process.stderr.write(
      `intel-desk: the library database was unusable (${recovered.reason}); it was moved to ${recovered.path} and a new one started.\n`,
    );
  }
  if (recovered && command !== 'restore')
    process.stderr.write(
      `intel-desk: ${await (await import('./commands-backup')).restoreAfterRecovery(desk)}\n`,
    );
  if (command !== 'purchases') await warnInDoubt(desk);
}

/** Purchases reconciliation could not settle at start are shown whatever the command. */
async function warnInDoubt(desk: DeskCore): Promise<void> {
  const { purchases } = await desk.handlers['purchases.list']({});
  const open = purchases.filter((p) => p.state === 'in_doubt');
  if (open.length === 0) return;
  const waits = [...new Set(open.map((p) => p.waitingFor?.summary).filter(Boolean))].join(' ');
  process.stderr.write(
    `intel-desk: ${count(open.length, 'purchase')} in doubt, never paid again automatically. ${waits} See \`intel-desk purchases\`.\n`,
  );
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return reportError(argumentError(error), process.argv.includes('--json'));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${HELP}\n`);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  const out = output(values.json ?? false);
  const command = positionals[0] ?? '';
  // Before the library is opened: a typo should cost nothing and say only what was meant.
  if (!(COMMANDS as readonly string[]).includes(command))
    return reportError(unknownCommand(command), out.json);
  let desk: DeskCore | null = null;
  try {
    desk = await openDesk(values, positionals[0]);
    await warnAtStart(desk, positionals[0]);
    await run(desk, out, values, positionals);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportError(await withCliRemedy(error), out.json);
  } finally {
    await desk?.close();
  }
}

process.exitCode = await main();
