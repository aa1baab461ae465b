/**
 * The wallet passphrase as the person's consent (decision 0022): raising a cap or a handle's budget, or going
 * over one with the keystore, is refused by core with `passphrase_required` until it carries the passphrase.
 * The change is tried without it first, so lowering and runs without a keystore never ask.
 */
import { DeskError } from '../core/base/errors';
import { UsageError } from './output';
import { canPrompt, readHidden } from './passphrase-prompt';
import type { SignerFlags } from './commands-wallet';

const PASSPHRASE_ENV = 'INTEL_DESK_PASSPHRASE';

export type ConsentSource =
  /** The variable the signer is unlocked from, else typed at the terminal (caps, budget, buy --over-cap). */
  | 'environment-or-terminal'
  /** Typed at the terminal only: nothing that runs without the person can give it (approve --over-cap). */
  | 'terminal';

/** The passphrase typed unseen at the terminal, with what it consents to in the question. */
export async function typedPassphrase(what: string): Promise<string> {
  const typed = await readHidden(`Wallet passphrase, to ${what}: `);
  if (typed === '') throw new UsageError('no wallet passphrase was typed; nothing was changed');
  return typed;
}

async function consentPassphrase(flags: SignerFlags, what: string, source: ConsentSource): Promise<string> {
  const variable = flags['passphrase-env'] ?? PASSPHRASE_ENV;
  const fromEnv = source === 'environment-or-terminal' ? process.env[variable] : undefined;
  if (fromEnv) return fromEnv;
  if (!canPrompt())
    throw new UsageError(
      source === 'terminal'
        ? `to ${what} the wallet passphrase must be typed at a terminal (never taken from the environment); nothing was changed or paid`
        : `to ${what} the wallet passphrase is needed: set it in $${variable}, or run this at a terminal to type it; nothing was changed or paid`,
    );
  return typedPassphrase(what);
}

/** Runs `change`; when core asks for the passphrase as consent, gets it (from `source`) and runs it again. */
export async function withConsent<T>(
  flags: SignerFlags,
  what: string,
  source: ConsentSource,
  change: (passphrase: string | undefined) => Promise<T>,
): Promise<T> {
  try {
    return await change(undefined);
  } catch (error) {
    if (!(error instanceof DeskError && error.code === 'passphrase_required')) throw error;
  }
  return change(await consentPassphrase(flags, what, source));
}
