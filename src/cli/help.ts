/**
 * The help, generated from the command table: `intel-desk --help` (or `help`) lists every command's forms,
 * and `intel-desk <command> --help` (or `help <command>`) shows one command with its flags. The table is
 * passed in: it holds `help` itself, which loads this module.
 */
import { sharedFlagsOf, type CliCommand, type CommandForm } from './command-spec';
import { OPTION_HELP, optionUsage } from './options';

/** The second column starts here; a form too long for the first column gets a line of its own. */
const SUMMARY_COLUMN = 41;

const FOOTER = `Options: --json, --service URL, --data-dir DIR, --rpc URL, --demo, --timeout S (one request; default 20),
         --version (-V)
Library: the installed app's data folder when there is one (desk/ in its user-data folder), else
         ~/.intel-desk (either is named on stderr); --data-dir DIR or $INTEL_DESK_DATA_DIR names another
Signer:  --key-file F (a key for this run only), else the stored keystore, unlocked with the passphrase in
         $INTEL_DESK_PASSPHRASE (or the variable named by --passphrase-env VAR); on a terminal, asked for
         (unseen) when that variable is unset
Environment: INTEL_DESK_SERVICE_URL, INTEL_DESK_DATA_DIR, INTEL_DESK_PRIVATE_KEY, INTEL_DESK_RPC_URL,
             INTEL_DESK_DEMO=1, INTEL_DESK_DEMO_ASSET (the demo token: the only one paid on the demo chain),
             INTEL_DESK_PASSPHRASE, INTEL_DESK_TIMEOUT,
             INTEL_DESK_LIBRARY_SECRET (used for that command only; \`secret set\` stores one), sent
             only to the saved service or to INTEL_DESK_LIBRARY_SECRET_ORIGIN,
             INTEL_DESK_CLOCK_OFFSET_MS (testing aid: ms added to the desk's clock, at most ±300000)
Network: HTTPS_PROXY, HTTP_PROXY, NO_PROXY (lower case first) unless the app's Settings → Network
         chose a proxy; NODE_EXTRA_CA_CERTS (a PEM file) for a CA that inspects TLS
Exit codes: 0 ok, 2 usage, 3 payment refused (safety rule, cap, wallet), 4 service error or failed
purchase, 5 network error or a purchase left in doubt, 6 bundle put refused because the dossier changed
on the service since it was fetched, 1 other.`;

function formLines({ usage, summary }: CommandForm): string[] {
  const first = `  ${usage}`;
  const indent = ' '.repeat(SUMMARY_COLUMN);
  const [head = '', ...rest] = summary;
  const lines =
    first.length < SUMMARY_COLUMN ? [`${first.padEnd(SUMMARY_COLUMN)}${head}`] : [first, `${indent}${head}`];
  return [...lines, ...rest.map((line) => `${indent}${line}`)];
}

export function mainHelp(table: readonly CliCommand[]): string {
  const forms = table.flatMap((command) => command.forms.flatMap(formLines));
  return ['intel-desk <command> [options]', '', ...forms, '', FOOTER].join('\n');
}

export function commandHelp(command: CliCommand): string {
  const forms = command.forms.map((form) =>
    [`intel-desk ${form.usage}`, ...form.summary.map((line) => `  ${line}`)].join('\n'),
  );
  const flags = command.options.map((name) => {
    const own = command.optionText?.[name];
    const usage = own?.value ? `--${name} ${own.value}` : optionUsage(name);
    return [usage, own?.text ?? OPTION_HELP[name].text] as const;
  });
  const width = Math.max(0, ...flags.map(([flag]) => flag.length)) + 2;
  return [
    forms.join('\n\n'),
    ...(flags.length > 0
      ? ['', 'Options:', ...flags.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`)]
      : []),
    '',
    `Global options: ${sharedFlagsOf(command)
      .filter((name) => !command.options.includes(name))
      .map(optionUsage)
      .join(', ')}`,
    'Environment, the library folder, the signer and exit codes: intel-desk --help',
  ].join('\n');
}
