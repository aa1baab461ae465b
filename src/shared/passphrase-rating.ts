/**
 * Whether a new wallet passphrase holds up to an offline guess. Length alone is not enough ("aaaaaaaaaaaa",
 * "passwordpassword"), so zxcvbn-ts estimates how many guesses a cracker ordering candidates by common
 * passwords, words, names, keyboard walks and repeats would need. Shared, so the meter in the window rates a
 * passphrase as it is typed by the very rule core enforces when the wallet is sealed.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { PASSPHRASE_MIN_GUESSES_LOG10, PASSPHRASE_MIN_LENGTH } from './passphrase';

let estimator: Promise<ZxcvbnFactory> | null = null;

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Built once, on the first rating. Loading and ranking the dictionaries is synchronous work of a few hundred
 * milliseconds, so it is done in steps with a turn of the event loop between them.
 */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const { ZxcvbnFactory } = await import('@zxcvbn-ts/core');
    await turn();
    const common = await import('@zxcvbn-ts/language-common');
    await turn();
    const en = await import('@zxcvbn-ts/language-en');
    await turn();
    return new ZxcvbnFactory({
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
    });
  })();
  return estimator;
}

/** "in about 10,000 guesses": a count people read at a glance, where "10^0" or "10^4" is notation. */
function guessesText(log10: number): string {
  const power = Math.floor(log10);
  if (power < 1) return 'within 10 guesses';
  if (power < 9) return `in about ${(10 ** power).toLocaleString('en-US')} guesses`;
  return `in about ${(10 ** (power - 9)).toLocaleString('en-US')} billion guesses`;
}

export interface PassphraseVerdict {
  ok: boolean;
  guessesLog10: number;
  reason: string | null;
}

export async function ratePassphrase(passphrase: string): Promise<PassphraseVerdict> {
  const length = [...passphrase].length;
  if (length < PASSPHRASE_MIN_LENGTH) {
    return {
      ok: false,
      guessesLog10: 0,
      reason: `it has ${length} characters, fewer than ${PASSPHRASE_MIN_LENGTH}`,
    };
  }
  const result = (await loadEstimator()).check(passphrase);
  if (result.guessesLog10 >= PASSPHRASE_MIN_GUESSES_LOG10)
    return { ok: true, guessesLog10: result.guessesLog10, reason: null };
  const warning = result.feedback.warning?.replace(/\.$/, '');
  const magnitude = `it would fall ${guessesText(result.guessesLog10)}`;
  return {
    ok: false,
    guessesLog10: result.guessesLog10,
    reason: warning ? `${magnitude} (${warning.charAt(0).toLowerCase()}${warning.slice(1)})` : magnitude,
  };
}
