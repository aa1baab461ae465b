/** Refuses a wallet passphrase too weak to seal a key with, by the rule in src/shared/passphrase-rating.ts. */
import { PASSPHRASE_HINT } from '../../shared/passphrase';
import { ratePassphrase } from '../../shared/passphrase-rating';
import { DeskError } from '../base/errors';

/** Refuses a passphrase too weak to seal a wallet with, saying why and what would pass. */
export async function requireStrongPassphrase(passphrase: string): Promise<void> {
  const verdict = await ratePassphrase(passphrase);
  if (verdict.ok) return;
  throw new DeskError(
    'weak_passphrase',
    `That passphrase is too easy to guess: ${verdict.reason}. ${PASSPHRASE_HINT}`,
    'wallet',
    { guessesLog10: Math.floor(verdict.guessesLog10) },
  );
}
