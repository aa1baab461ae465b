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
          ? 'An assistant asks to buy'
          : `Assistants ask for ${plural(pending.length, 'purchase')}`}
      </h2>
      <ul>
        {pending.map((request) => {
          const mine = approve.variables?.id === request.id;
          return (
            <li key={request.id} data-testid="purchase-request">
              <p>
                {plural(request.reportCount, 'report')} of @{request.handle} for {usd(request.amount)}, asked{' '}
                {dateTime(request.createdAt)} <span className="mono small">({request.id})</span>
              </p>
              <p className="small" data-testid="purchase-request-terms">
                From <span className="mono">{request.serviceUrl}</span>, paid on{' '}
                {networkName(request.network)} to <span className="mono">{request.payTo}</span>. Approving
                pays on these terms or not at all.
              </p>
              {request.reason ? (
                <p className="small">The assistant&rsquo;s reason: {request.reason}</p>
              ) : null}
              {request.error && !mine ? <p className="small warn-text">{request.error}</p> : null}
              <div className="toolbar">
                <button
                  type="button"
                  disabled={!canSign || busy}
                  onClick={() => approve.mutate({ id: request.id })}
                >
                  Approve and pay {usd(request.amount)}
                </button>
                {mine &&
                refused !== null &&
                (OVER_LIMIT.has(refused) || (approve.variables?.acceptOverCap && PASSPHRASE.has(refused))) ? (
                  <>
                    <ConsentPassphrase what="go over it" value={passphrase} onChange={setPassphrase} />
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
                      Go over it and pay
                    </button>
                  </>
                ) : null}
                {mine && refused === 'payee_changed' ? (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => approve.mutate({ id: request.id, acceptPayToChange: true })}
                  >
                    Accept the new payee and pay
                  </button>
                ) : null}
                <button type="button" disabled={busy} onClick={() => decline.mutate({ id: request.id })}>
                  Decline
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {canSign ? null : (
        <p className="small">
          Unlock the wallet to approve here, or approve in a terminal with{' '}
          <code>intel-desk approve &lt;id&gt;</code>.
        </p>
      )}
      <ErrorLine error={approve.error ?? decline.error} testId="purchase-request-error" />
    </section>
  );
}
