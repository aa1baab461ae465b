/**
 * Reading the choice with the library secret, offered beside Buy and never in its place: the secret is for
 * first-party staff, and a person who set it for Dossiers may still mean to buy. It says what the secret
 * changes, so choosing it is a decision and not a surprise.
 */
import type { QuoteView } from '../../../shared/rpc';
import { plural, usd } from '../../format';

export function SecretRead(props: { quote: QuoteView; disabled: boolean; onRead: () => void }) {
  const q = props.quote;
  return (
    <div className="secret-read" data-testid="secret-read">
      <h3>Or read with the library secret</h3>
      <p className="small">
        The library secret set in Settings lets first-party staff read reports without paying: nothing is
        signed and nothing is charged (the price would be {usd(q.amount)}), and Purchases lists the read as
        made with the secret, with nothing on chain. Buy stays available above.
      </p>
      <button type="button" disabled={props.disabled} onClick={props.onRead}>
        Read {plural(q.reportCount, 'report')} with the library secret
      </button>
    </div>
  );
}
