/**
 * The CLI's signer: a key for this run only (--key-file or INTEL_DESK_PRIVATE_KEY), or the stored keystore
 * unlocked with the passphrase from an environment variable, or typed unseen at the terminal when that is
 * unset. `wallet import` stores a raw key or a standard JSON (v3) keystore, sealed with that passphrase.
 */
import { DeskError, type DeskCore } from '../core';
import { UsageError, type Output } from './output';
import { readNamedFile } from './files';
import { didYouMean } from './suggest';
import { canPrompt, readHidden } from './passphrase-prompt';
import { encryptedOrLocal } from '../shared/transport';

export interface SignerFlags {
  'key-file'?: string | undefined;
  keystore?: string | undefined;
  'passphrase-env'?: string | undefined;
  'keystore-password-env'?: string | undefined;
  replace?: boolean | undefined;
}

const PASSPHRASE_ENV = 'INTEL_DESK_PASSPHRASE';
const KEYSTORE_PASSWORD_ENV = 'INTEL_DESK_KEYSTORE_PASSWORD';

const readText = (file: string, what: string): string => readNamedFile(file, what).trim();

/** From the environment, else typed at the terminal; a script without the variable gets a usage error. */
async function fromEnvOrTerminal(variable: string, what: string, question: string): Promise<string> {
  const value = process.env[variable];
  if (value) return value;
  if (!canPrompt()) throw new UsageError(`set the ${what} in $${variable}`);
  return typed(await readHidden(question), what);
}

function typed(value: string, what: string): string {
  if (value === '') throw new UsageError(`no ${what} was typed; nothing was changed`);
  return value;
}

/** A new passphrase: from the environment, or typed twice at the terminal so a slip is not sealed in. */
async function newPassphrase(variable: string): Promise<string> {
  const first = await fromEnvOrTerminal(variable, 'wallet passphrase', 'New wallet passphrase: ');
  if (process.env[variable]) return first;
  if ((await readHidden('The same passphrase again: ')) !== first)
    throw new UsageError('the two passphrases typed differ; nothing was stored');
  return first;
}

/** The key for this run, when one was given; nothing is written. */
export function sessionKey(flags: SignerFlags): string | null {
  if (flags['key-file']) return readText(flags['key-file'], 'key file');
  return process.env['INTEL_DESK_PRIVATE_KEY'] ?? null;
}

/**
 * Makes the desk able to sign: the session key if given, else the stored keystore unlocked from the env.
 * Returns what stops a payment when it still cannot sign (no wallet, or a locked one without a passphrase),
 * so `buy` can say it before anything reads as if it were paying; reading with the library secret signs nothing.
 */
export async function prepareSigner(
  desk: DeskCore,
  flags: SignerFlags,
  purpose: { to: string; command: string } = { to: 'pay', command: 'buy' },
): Promise<DeskError | null> {
  const variable = flags['passphrase-env'] ?? PASSPHRASE_ENV;
  const status = await desk.handlers['wallet.status']({});
  if (status.unlocked) return null;
  if (status.kind === null) {
    return new DeskError(
      'no_wallet',
      `No wallet to ${purpose.to} with: give --key-file F for this run, or store one with \`intel-desk wallet import --key-file F\`.`,
      'wallet',
    );
  }
  let passphrase = process.env[variable];
  if (!passphrase && canPrompt())
    passphrase = typed(
      await readHidden(`Passphrase of the wallet ${status.address ?? ''} (to ${purpose.to}): `),
      'wallet passphrase',
    );
  if (!passphrase) {
    return new DeskError(
      'wallet_locked',
      `Unlock the wallet to ${purpose.to}: set its passphrase in $${variable}${flags['passphrase-env'] ? '' : ' (or name another variable with --passphrase-env VAR)'} and run ${purpose.command} again.`,
      'wallet',
    );
  }
  await desk.handlers['wallet.unlock']({ passphrase });
  return null;
}

export async function wallet(desk: DeskCore, out: Output, flags: SignerFlags, action: string): Promise<void> {
  if (action === 'import') {
    if (flags.keystore && flags['key-file']) throw new UsageError('give --key-file or --keystore, not both');
    if (!flags.keystore && !flags['key-file'])
      throw new UsageError('wallet import needs --key-file F or --keystore F');
    const passphrase = await newPassphrase(flags['passphrase-env'] ?? PASSPHRASE_ENV);
    if (flags.keystore) {
      await desk.handlers['wallet.import']({
        keystoreJson: readText(flags.keystore, 'keystore file'),
        keystorePassword: await fromEnvOrTerminal(
          flags['keystore-password-env'] ?? KEYSTORE_PASSWORD_ENV,
          'keystore password',
          `Password of the keystore ${flags.keystore}: `,
        ),
        passphrase,
        replace: flags.replace === true,
      });
    } else if (flags['key-file']) {
      await desk.handlers['wallet.import']({
        privateKey: readText(flags['key-file'], 'key file'),
        passphrase,
        replace: flags.replace === true,
      });
    }
  } else if (action !== 'status') {
    throw new UsageError(`wallet takes status or import.${didYouMean(action, ['status', 'import'])}`);
  }
  const status = await desk.handlers['wallet.status']({});
  const rpc = status.chainRpc
    ? `chain RPC ${status.chainRpc.url} (${RPC_SOURCE[status.chainRpc.source]})${encryptedOrLocal(status.chainRpc.url) ? '' : ': not used, as it is plain http to another host; choose an https RPC in Settings'}`
    : "chain RPC: none yet (the service's network is learnt from its first quote; --rpc URL sets one)";
  out.result(status, () =>
    [
      status.address
        ? `${status.kind} wallet ${status.address}: ${status.balanceUsdc !== null ? `${status.balanceUsdc} USDC` : 'USDC balance unknown (quote once, or check the chain RPC)'}`
        : 'no wallet',
      rpc,
    ].join('\n'),
  );
}

const RPC_SOURCE = {
  run: 'given for this run with --rpc or INTEL_DESK_RPC_URL',
  settings: 'chosen in Settings',
  default: "the network's public endpoint",
} as const;
