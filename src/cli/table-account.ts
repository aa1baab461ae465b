/** The commands around the library: the wallet, backups, dossiers, the MCP server and the library secret. */
import { UsageError } from './output';
import { form, library, need, SIGNER, withOptionText, type CliCommand } from './command-spec';
import { dataDirOf } from './open-desk';
import { didYouMean } from './suggest';

export const ACCOUNT_COMMANDS: readonly CliCommand[] = [
  library(
    'wallet',
    [
      form('wallet status', "the signer's address (and USDC balance when the chain is known)"),
      form(
        'wallet import --key-file F | --keystore F.json [--replace]',
        'store a key, sealed with the passphrase in $INTEL_DESK_PASSPHRASE',
        '(asked for, unseen, on a terminal when unset); over a wallet of',
        'another address only with --replace (the old keystore is kept in',
        'backups/ in the data folder)',
        '(12+ characters, hard to guess: say, four uncommon words)',
        "(a JSON keystore's own password: $INTEL_DESK_KEYSTORE_PASSWORD)",
      ),
    ],
    ['key-file', 'keystore', 'passphrase-env', 'keystore-password-env', 'replace'],
    async (desk, { out, values, args }) =>
      (await import('./commands-wallet')).wallet(desk, out, values, need(args, 0, 'wallet action')),
    ['status', 'import'],
  ),
  library(
    'backup',
    [
      form(
        'backup',
        'copy the library into backups/ in the data folder now (copies are',
        'also taken after purchases, daily and before an upgrade)',
      ),
    ],
    [],
    async (desk, { out }) => (await import('./commands-backup')).backup(desk, out),
  ),
  withOptionText(
    library(
      'restore',
      [
        form(
          'restore --from FILE [--yes]',
          "replace the library's reports with a backup's (checked first);",
          "this desk's settings, caps, payee pins and purchase records stay,",
          'and the library as it was is kept in backups/ (a file from',
          'elsewhere than backups/ asks first, or takes --yes)',
        ),
        form(
          'restore',
          'sign in to the service with the wallet and download again, free,',
          'every report it bought there (checked against receipts held)',
        ),
      ],
      ['from', 'yes', ...SIGNER],
      async (desk, { out, values }) => {
        if (values.from === undefined) {
          const cannotSign = await (
            await import('./commands-wallet')
          ).prepareSigner(desk, values, { to: 'sign in', command: 'restore' });
          if (cannotSign) throw cannotSign;
        }
        return (await import('./commands-backup')).restore(desk, out, values.from, values.yes === true);
      },
    ),
    {
      from: {
        value: 'FILE',
        text: 'the backup to put back (without it: restore purchases from the service)',
        completes: 'file',
      },
      yes: { text: 'restore a file from outside backups/ without asking' },
    },
  ),
  library(
    'bundle',
    [
      form(
        'bundle get <handle> | bundle put <handle> <file.json>',
        "a handle's full dossier (needs the library secret)",
      ),
    ],
    [],
    async (desk, { out, args }) => {
      const { bundleGet, bundlePut } = await import('./commands-bundle');
      const action = need(args, 0, 'bundle action (get or put)');
      if (action === 'get') return bundleGet(desk, need(args, 1, 'handle'));
      if (action === 'put')
        return bundlePut(desk, out, need(args, 1, 'handle'), need(args, 2, 'bundle file'));
      throw new UsageError(`bundle takes get or put.${didYouMean(action, ['get', 'put'])}`);
    },
    ['get', 'put'],
  ),
  library(
    'mcp',
    [
      form(
        'mcp [--allow-spend USD]',
        'an MCP server on stdio for AI assistants (README): it can search,',
        'read and quote; purchases it asks for wait for your approval, in',
        'the client up to USD this session (default 0: only `approve`)',
      ),
    ],
    ['allow-spend', ...SIGNER],
    async (desk, { values }) => (await import('./commands-mcp')).mcp(desk, values, dataDirOf(values)),
  ),
  withOptionText(
    library(
      'approve',
      [
        form(
          'approve <id> [--decline] | --list',
          'approve (pay, through every cap) or decline a purchase an',
          'assistant asked for: shows its price, payee and network and asks',
          'at the terminal (without one, pays only with --yes); --list',
          'shows those waiting',
        ),
      ],
      ['decline', 'list', 'yes', 'over-cap', 'accept-payee', ...SIGNER],
      async (desk, { out, values, args }) =>
        (await import('./commands-approve')).approve(desk, out, values, args[0]),
    ),
    {
      yes: { text: 'pay without asking (without a terminal, the only way to approve)' },
      'over-cap': { text: 'go over a cap or budget: asks for the wallet passphrase at the terminal' },
    },
  ),
  library(
    'secret',
    [
      form(
        'secret set | clear | status',
        'store the library secret for the selected service (read from',
        '$INTEL_DESK_LIBRARY_SECRET or stdin), forget it, or show it',
      ),
    ],
    [],
    async (desk, { out, args }) =>
      (await import('./commands-secret')).secret(
        desk,
        out,
        need(args, 0, 'secret action (set, clear or status)'),
      ),
    ['set', 'clear', 'status'],
  ),
];
