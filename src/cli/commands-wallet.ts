/**
 * The CLI's signer: a key for this run only (--key-file or INTEL_DESK_PRIVATE_KEY), or the stored keystore
 * unlocked with the passphrase from an environment variable. `wallet import` stores a raw key or a standard
 * JSON (v3) keystore, sealed with that passphrase.
 */
import { readFileSync } from 'node:fs';
import type { DeskCore } from '../core';
import { UsageError, type Output } from './output';

export interface SignerFlags {
  'key-file'?: string | undefined;
  keystore?: string | undefined;
  'passphrase-env'?: string | undefined;
  'keystore-password-env'?: string | undefined;
}

const PASSPHRASE_ENV = 'INTEL_DESK_PASSPHRASE';
const KEYSTORE_PASSWORD_ENV = 'INTEL_DESK_KEYSTORE_PASSWORD';

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`cannot read the ${what} ${file}: ${(error as Error).message}`);
  }
}

function fromEnv(variable: string, what: string): string {
  const value = process.env[variable];
  if (!value) throw new UsageError(`set the ${what} in $${variable}`);
  return value;
}

/** The key for this run, when one was given; nothing is written. */
export function sessionKey(flags: SignerFlags): string | null {
  if (flags['key-file']) return readText(flags['key-file'], 'key file');
  return process.env['INTEL_DESK_PRIVATE_KEY'] ?? null;
}

/** Makes the desk able to sign: the session key if given, else the stored keystore unlocked from the env. */
export async function prepareSigner(desk: DeskCore, flags: SignerFlags): Promise<void> {
  const status = await desk.handlers['wallet.status']({});
  if (status.unlocked || status.kind !== 'keystore') return;
  const variable = flags['passphrase-env'] ?? PASSPHRASE_ENV;
  if (!process.env[variable]) return;
  await desk.handlers['wallet.unlock']({ passphrase: fromEnv(variable, 'wallet passphrase') });
}

export async function wallet(desk: DeskCore, out: Output, flags: SignerFlags, action: string): Promise<void> {
  if (action === 'import') {
    const passphrase = fromEnv(flags['passphrase-env'] ?? PASSPHRASE_ENV, 'wallet passphrase');
    if (flags.keystore && flags['key-file']) throw new UsageError('give --key-file or --keystore, not both');
    if (flags.keystore) {
      await desk.handlers['wallet.import']({
        keystoreJson: readText(flags.keystore, 'keystore file'),
        keystorePassword: fromEnv(
          flags['keystore-password-env'] ?? KEYSTORE_PASSWORD_ENV,
          'keystore password',
        ),
        passphrase,
      });
    } else if (flags['key-file']) {
      await desk.handlers['wallet.import']({
        privateKey: readText(flags['key-file'], 'key file'),
        passphrase,
      });
    } else {
      throw new UsageError('wallet import needs --key-file F or --keystore F');
    }
  } else if (action !== 'status') {
    throw new UsageError('wallet takes status or import');
  }
  const status = await desk.handlers['wallet.status']({});
  out.result(status, () =>
    status.address
      ? `${status.kind} wallet ${status.address}${status.balanceUsdc ? `, ${status.balanceUsdc} USDC` : ''}`
      : 'no wallet',
  );
}
