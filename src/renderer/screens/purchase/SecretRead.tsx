/**
 * Reading the choice with the library secret, offered beside Buy and never in its place: the secret is for
 * first-party staff, and a person who set it for Dossiers may still mean to buy. It says what the secret
 * changes, so choosing it is a decision and not a surprise.
 */
import type { QuoteView } from '../../../shared/rpc';
import { plural, usd } from '../../format';
import { purchaseText as t } from '../../text/purchase';

export function SecretRead(props: { quote: QuoteView; disabled: boolean; onRead: () => void }) {
  const q = props.quote;
  return (
    <div className="secret-read" data-testid="secret-read">
      <h3>{t('secretTitle')}</h3>
      <p className="small">{t('secretExplain', { amount: usd(q.amount) })}</p>
      <button type="button" disabled={props.disabled} onClick={props.onRead}>
        {t('secretRead', { reports: plural(q.reportCount, t('report'), t('reports')) })}
      </button>
    </div>
  );
}
