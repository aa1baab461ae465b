/**
 * The rule a new wallet passphrase must meet, shared so the import form states the same rule core enforces.
 * 10^12 guesses at scrypt N=2^17 keeps one attacker's GPU busy for years, not days.
 */
export const PASSPHRASE_MIN_LENGTH = 12;
export const PASSPHRASE_MIN_GUESSES_LOG10 = 12;
export const PASSPHRASE_HINT =
  `Use at least ${PASSPHRASE_MIN_LENGTH} characters that are hard to guess: four or more uncommon words ` +
  'with spaces between them work well (not a known phrase, a name, a date or a keyboard pattern).';
