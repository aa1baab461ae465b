/**
 * How strong a new passphrase is, while it is typed, by the rule core enforces on import
 * (src/shared/passphrase-rating.ts), so the person learns before the click, not after. The dictionaries
 * load on the first keystroke, in their own chunk.
 */
import { useEffect, useState } from 'react';
import { useDebounced } from '../hooks/debounce';
import { PASSPHRASE_MIN_GUESSES_LOG10, PASSPHRASE_MIN_LENGTH } from '../../shared/passphrase';
import type { PassphraseVerdict } from '../../shared/passphrase-rating';
import { walletText as t } from '../text/wallet';

function share(passphrase: string, verdict: PassphraseVerdict): number {
  if (verdict.ok) return 1;
  const length = [...passphrase].length;
  // Too short is never more than a third of the way; past the length, the guesses decide.
  if (length < PASSPHRASE_MIN_LENGTH) return (length / PASSPHRASE_MIN_LENGTH) * 0.33;
  return Math.min(0.9, Math.max(0.34, verdict.guessesLog10 / PASSPHRASE_MIN_GUESSES_LOG10));
}

export function PassphraseMeter(props: { passphrase: string; id: string }) {
  const typed = useDebounced(props.passphrase, 200);
  const [rated, setRated] = useState<{ passphrase: string; verdict: PassphraseVerdict } | null>(null);
  useEffect(() => {
    if (!typed) return;
    let current = true;
    void import('../../shared/passphrase-rating')
      .then(({ ratePassphrase }) => ratePassphrase(typed))
      .then((verdict) => {
        if (current) setRated({ passphrase: typed, verdict });
      });
    return () => {
      current = false;
    };
  }, [typed]);
  if (!props.passphrase || !rated) return null;
  const { verdict } = rated;
  const fill = share(rated.passphrase, verdict);
  const text = verdict.ok ? t('strongEnough') : t('tooEasy', { reason: verdict.reason ?? t('keepGoing') });
  return (
    <div className="passphrase-meter" data-testid="passphrase-meter">
      <div
        className={verdict.ok ? 'meter meter-ok' : 'meter meter-high'}
        role="meter"
        aria-label={t('strength')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fill * 100)}
        aria-valuetext={text}
      >
        <div className="meter-fill" style={{ width: `${fill * 100}%` }} />
      </div>
      <p id={props.id} className={verdict.ok ? 'small' : 'small warn-text'} aria-live="polite">
        {text}
      </p>
    </div>
  );
}
