/**
 * Purchases an AI assistant asked for through `intel-desk mcp`, waiting for the person's word
 * (docs/decisions/0027-mcp-server.md). Approving one here is the same purchaseRequest.approve as
 * `intel-desk approve`: a fresh quote and an ordinary purchase, through every cap, budget and the payee pin,
 * on the terms the request showed (decision 0039); going over a cap needs the wallet's passphrase (0022).
 * The assistant's reason is its own words, shown as text.
 */
import { useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { ConsentPassphrase } from '../components/ConsentPassphrase';
import { errorCode } from '../rpc/client';
import { ErrorLine } from '../components/States';
import { dateTime, networkName, plural, usd } from '../format';
import { purchasesText as t } from '../text/purchases';

const OVER_LIMIT = new Set(['over_purchase_cap', 'over_daily_cap', 'over_handle_budget']);
/** Going over was refused for the passphrase (none, or a wrong one): it is asked again. */
const PASSPHRASE = new Set(['passphrase_required', 'wrong_passphrase']);

export function PurchaseRequestsBanner() {
  const requests = useRpcQuery('purchaseRequests.list', { state: 'pending' });
  const wallet = useRpcQuery('wallet.status', {});
  const approve = useRpcMutation('purchaseRequest.approve');
  const decline = useRpcMutation('purchaseRequest.decline');
  const [passphrase, setPassphrase] = useState('');
  const pending = requests.data?.requests ?? [];
  if (pending.length === 0) return null;
  // A wallet in the window signs in a purchase panel of its own; these are approved with the keystore.
  const canSign = wallet.data?.kind === 'keystore' && wallet.data.unlocked;
  const refused = approve.error ? errorCode(approve.error) : null;
  const busy = approve.isPending || decline.isPending;
  return (
    <section
      className="notice purchase-requests"
      aria-labelledby="purchase-requests-title"
      data-testid="purchase-requests"
    >
      <h2 id="purchase-requests-title">
        {pending.length === 1
          ? t('assistantAsks')
          : t('assistantsAsk', { purchases: plural(pending.length, t('purchase'), t('purchases')) })}
      </h2>
      <ul>
        {pending.map((request) => {
          const mine = approve.variables?.id === request.id;
          return (
            <li key={request.id} data-testid="purchase-request">
              <p>
                {t('request', {
                  reports: plural(request.reportCount, t('report'), t('reports')),
                  handle: request.handle,
                  amount: usd(request.amount),
                  when: dateTime(request.createdAt),
                })}{' '}
                <span className="mono small">({request.id})</span>
              </p>
              <p className="small" data-testid="purchase-request-terms">
                {t('termsFrom')}
                <span className="mono">{request.serviceUrl}</span>
                {t('termsPaidOn', { network: networkName(request.network) })}
                <span className="mono">{request.payTo}</span>
                {t('termsEnd')}
              </p>
              {request.reason ? <p className="small">{t('reason', { reason: request.reason })}</p> : null}
              {request.error && !mine ? <p className="small warn-text">{request.error}</p> : null}
              <div className="toolbar">
                <button
                  type="button"
                  disabled={!canSign || busy}
                  onClick={() => approve.mutate({ id: request.id })}
                >
                  {t('approve', { amount: usd(request.amount) })}
                </button>
                {mine &&
                refused !== null &&
                (OVER_LIMIT.has(refused) || (approve.variables?.acceptOverCap && PASSPHRASE.has(refused))) ? (
                  <>
                    <ConsentPassphrase what={t('goOverIt')} value={passphrase} onChange={setPassphrase} />
                    <button
                      type="button"
                      disabled={busy || passphrase === ''}
                      onClick={() =>
                        approve.mutate(
                          { id: request.id, acceptOverCap: true, passphrase },
                          { onSettled: () => setPassphrase('') },
                        )
                      }
                    >
                      {t('goOverAndPay')}
                    </button>
                  </>
                ) : null}
                {mine && refused === 'payee_changed' ? (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => approve.mutate({ id: request.id, acceptPayToChange: true })}
                  >
                    {t('acceptPayee')}
                  </button>
                ) : null}
                <button type="button" disabled={busy} onClick={() => decline.mutate({ id: request.id })}>
                  {t('decline')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {canSign ? null : (
        <p className="small">
          {t('unlockToApprove')} <code>{t('approveCommand')}</code>
          {t('sentenceEnd')}
        </p>
      )}
      <ErrorLine error={approve.error ?? decline.error} testId="purchase-request-error" />
    </section>
  );
}
