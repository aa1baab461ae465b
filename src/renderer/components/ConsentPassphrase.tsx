/**
 * The wallet passphrase as the person's consent to raise a cap or a budget, or to go over one (decision 0022).
 * What is typed goes to core with that one change and is cleared after; core never sends it back.
 */
import { errorCode } from '../rpc/client';

/** Core asked for the passphrase (none was given, or it was wrong): the field is shown. */
export const asksForPassphrase = (error: unknown): boolean => {
  const code = errorCode(error);
  return code === 'passphrase_required' || code === 'wrong_passphrase';
};

export function ConsentPassphrase(props: {
  /** What the passphrase consents to, after "to": "raise a cap". */
  what: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="consent-passphrase">
      Wallet passphrase, to {props.what}{' '}
      <input
        type="password"
        autoComplete="current-password"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid="consent-passphrase"
      />
    </label>
  );
}
