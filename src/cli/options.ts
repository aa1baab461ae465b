/** The CLI's flags: what parseArgs accepts, what each means in `--help`, and how its value completes. */
import type { parseArgs } from 'node:util';
import { UsageError } from './output';
import { didYouMean } from './suggest';

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
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
  pay: { type: 'boolean' },
  'over-cap': { type: 'boolean' },
  'accept-payee': { type: 'boolean' },
  handle: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  csv: { type: 'boolean' },
  verify: { type: 'boolean' },
  days: { type: 'string' },
  limit: { type: 'string' },
  clear: { type: 'boolean' },
  'per-purchase': { type: 'string' },
  daily: { type: 'string' },
  replace: { type: 'boolean' },
  'allow-spend': { type: 'string' },
  list: { type: 'boolean' },
  decline: { type: 'boolean' },
  db: { type: 'string' },
  name: { type: 'string' },
  'daily-cap': { type: 'string' },
  'per-purchase-cap': { type: 'string' },
  'time-zone': { type: 'string' },
  'consent-over-cap': { type: 'boolean' },
} as const;

export type OptionName = keyof typeof OPTIONS;

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

/** What a value completes to in the shell: a file, a folder, one of some words, or nothing to offer. */
export type ValueCompletion = 'file' | 'folder' | readonly string[] | 'none';

export interface OptionHelp {
  /** What `--help` shows after the flag for its value ("URL", "D"); none for a switch. */
  value?: string;
  text: string;
  completes?: ValueCompletion;
}

export const OPTION_HELP: Record<OptionName, OptionHelp> = {
  json: { text: 'print JSON for scripts instead of text' },
  help: { text: 'this help' },
  version: { text: "intel-desk's version" },
  service: { value: 'URL', text: 'the service for this run ($INTEL_DESK_SERVICE_URL)', completes: 'none' },
  'data-dir': {
    value: 'DIR',
    text: "the library folder (default: the installed app's, else ~/.intel-desk)",
    completes: 'folder',
  },
  rpc: { value: 'URL', text: 'the chain RPC for this run ($INTEL_DESK_RPC_URL)', completes: 'none' },
  timeout: { value: 'S', text: 'seconds one request may take (default 20)', completes: 'none' },
  demo: { text: 'the local demo chain and its token ($INTEL_DESK_DEMO=1)' },
  'key-file': { value: 'F', text: 'a file holding a private key', completes: 'file' },
  'passphrase-env': {
    value: 'VAR',
    text: 'the variable holding the wallet passphrase (default INTEL_DESK_PASSPHRASE)',
    completes: 'none',
  },
  keystore: { value: 'F.json', text: 'a JSON (v3) keystore to import', completes: 'file' },
  'keystore-password-env': {
    value: 'VAR',
    text: "the variable holding the keystore's own password (default INTEL_DESK_KEYSTORE_PASSWORD)",
    completes: 'none',
  },
  all: { text: 'every report on the menu' },
  from: { value: 'D', text: 'from this ISO date or timestamp', completes: 'none' },
  to: { value: 'D', text: 'up to this ISO date or timestamp', completes: 'none' },
  ids: { value: 'a,b', text: 'these report ids', completes: 'none' },
  missing: { text: 'the reports on the menu you do not own' },
  'include-owned': { text: 'quote and buy reports you own again' },
  rebuy: { text: 'the same as --include-owned' },
  // buy never asks at a terminal: --yes is the confirmation itself, not a way to skip a question.
  yes: { text: 'confirm the purchase (buy never asks, and without it refuses)' },
  pay: { text: 'pay even when the library secret would read the reports for free' },
  'over-cap': { text: 'go over a cap or budget for this purchase' },
  'accept-payee': { text: "accept a payee that changed since the service's first payment" },
  handle: { value: 'h', text: 'only reports of this handle', completes: 'none' },
  format: {
    value: 'F',
    text: 'json, md, pdf, csl-json or bibtex (md-folder with --out)',
    completes: ['json', 'md', 'pdf', 'csl-json', 'bibtex', 'md-folder'],
  },
  out: { value: 'DIR', text: 'the folder to write into (made if missing)', completes: 'folder' },
  csv: { text: 'write the purchase history as CSV' },
  verify: { text: "check the receipt against the token's events on chain" },
  days: { value: 'N', text: 'how many days the daily spend covers (default 30)', completes: 'none' },
  limit: { value: 'N', text: 'only the newest N reports', completes: 'none' },
  clear: { text: 'clear it' },
  'per-purchase': {
    value: 'USD',
    text: 'the most one purchase may cost without --over-cap',
    completes: 'none',
  },
  daily: { value: 'USD', text: 'the most purchases may cost in a day without --over-cap', completes: 'none' },
  replace: { text: 'replace a wallet of another address (its keystore is kept in backups/)' },
  'allow-spend': {
    value: 'USD',
    text: 'what the MCP client may approve this session (default 0)',
    completes: 'none',
  },
  list: { text: 'list the purchases waiting for approval' },
  decline: { text: 'decline the purchase instead of paying' },
  db: {
    value: 'URL',
    text: "the team's PostgreSQL (postgresql://user@host/db?sslmode=verify-full)",
    completes: 'none',
  },
  name: { value: 'NAME', text: "the team's name", completes: 'none' },
  'daily-cap': { value: 'USD', text: 'the most the whole team may spend in a day', completes: 'none' },
  'per-purchase-cap': { value: 'USD', text: 'the most one purchase of the team may cost', completes: 'none' },
  'time-zone': { value: 'TZ', text: "the team's day for the daily cap (default UTC)", completes: 'none' },
  'consent-over-cap': { text: "let an analyst go over the team's caps with --over-cap" },
};

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionName[] = [
  'json',
  'service',
  'data-dir',
  'rpc',
  'demo',
  'timeout',
  'help',
  'version',
];

/** "--service URL" or "--json". */
export const optionUsage = (name: OptionName): string => {
  const value = OPTION_HELP[name].value;
  return value === undefined ? `--${name}` : `--${name} ${value}`;
};

/** Node's parser speaks of itself ("place it at the end of the command after '--'"); this names the flag. */
export function argumentError(error: unknown): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^' =]+)/.exec(message)?.[1] ?? '';
  const name = flag.replace(/^-+/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flags = Object.keys(OPTIONS).map((option) => `--${option}`);
    return new UsageError(`unknown option ${flag}.${didYouMean(`--${name}`, flags)} See --help.`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name in OPTIONS) {
    const option = OPTIONS[name as OptionName];
    return new UsageError(
      option.type === 'boolean'
        ? `--${name} is a switch and takes no value`
        : `--${name} needs a value (use --${name}=VALUE for a value that starts with a dash)`,
    );
  }
  return new UsageError(message);
}
