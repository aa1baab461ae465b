/**
 * Every purchase with its amount, state and receipt; today's spend against the cap; totals, budgets and
 * charts of what was spent; check unfinished purchases (purchases.reconcile) against the chain.
 */
import type { ReactNode } from 'react';
import type { PurchaseView } from '../../shared/rpc';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { Empty, ErrorLine, ErrorMessage, Loading } from '../components/States';
import { dateTime, networkName, plural, pluralWord, shortHash, usd } from '../format';
import { download } from '../download';
import { shareOf } from '../../shared/money';
import { ReceiptDialog } from './ReceiptDialog';
import { useNavigate } from '../hooks/route';
import { CopyButton } from '../components/CopyButton';
import { SpendSummary } from './SpendSummary';
import { PurchaseRequestsBanner } from './PurchaseRequests';
import { TeamSpendLine } from './TeamSpend';

const STATE_TEXT: Record<string, string> = {
  signed: 'signed, not sent',
  sent: 'sent, waiting',
  completed: 'completed',
  failed: 'failed',
  in_doubt: 'in doubt',
};

/** What moved, not what was quoted: a failed purchase charged nothing; one in doubt, up to its price. */
function charged(p: PurchaseView): ReactNode {
  if (p.paidWith === 'library_secret') return 'library secret';
  if (p.restored === 'unconfirmed') {
    return (
      <span
        className="warn-text"
        title={`Restored from the service, which says it charged ${usd(p.amount)}; the chain has not confirmed it, so it counts against no cap or total.`}
      >
        not confirmed · {usd(p.amount)}
      </span>
    );
  }
  if (p.movedUnits === null) {
    return (
      <span className="warn-text" title={`Quoted ${usd(p.amount)}; not yet known whether it was charged.`}>
        unknown · up to {usd(p.amount)}
      </span>
    );
  }
  if (BigInt(p.movedUnits) === 0n && BigInt(p.amount) > 0n) {
    return <span title={`Quoted ${usd(p.amount)}; nothing was charged.`}>{usd(0n)}</span>;
  }
  return usd(p.movedUnits);
}

/** `purchaseId`: the purchase whose receipt is open (#/purchases/ID), so Back closes it and a link opens it. */
export function PurchasesScreen(props: { purchaseId?: string | undefined }) {
  const purchases = useRpcQuery('purchases.list', {});
  const reconcile = useRpcMutation('purchases.reconcile');
  const view = reconcile.data ?? purchases.data;
  const inDoubt = view?.purchases.filter((p) => p.state === 'in_doubt' || p.state === 'sent').length ?? 0;
  const spentShare = view ? shareOf(view.spentTodayUnits, view.dailyCapUnits) : 0;
  const navigate = useNavigate();
  const exportCsv = useRpcMutation('receipts.export', { onSuccess: download });
  return (
    <section aria-labelledby="purchases-title">
      <div className="screen-head">
        <h1 id="purchases-title">Purchases</h1>
        <div className="toolbar">
          <button type="button" onClick={() => reconcile.mutate({})} disabled={reconcile.isPending}>
            {reconcile.isPending ? 'Checking…' : 'Check unfinished purchases'}
          </button>
          <button
            type="button"
            onClick={() => exportCsv.mutate({ format: 'csv' })}
            disabled={!view || view.purchases.length === 0}
          >
            Export CSV
          </button>
        </div>
      </div>
      <ErrorLine error={exportCsv.error} />
      {props.purchaseId ? (
        <ReceiptDialog purchaseId={props.purchaseId} onClose={() => navigate({ screen: 'purchases' })} />
      ) : null}
      <ErrorLine error={reconcile.error} />
      <PurchaseRequestsBanner />
      <TeamSpendLine />
      {purchases.isPending ? <Loading label="Reading the ledger…" /> : null}
      {purchases.isError ? (
        <ErrorMessage error={purchases.error} onRetry={() => void purchases.refetch()} />
      ) : null}
      {view ? (
        <div className="spend" data-testid="daily-spend">
          <p>
            Today: {usd(view.spentTodayUnits)} of your {usd(view.dailyCapUnits)} daily cap · per purchase cap{' '}
            {usd(view.perPurchaseCapUnits)}
          </p>
          <div
            className={spentShare >= 0.8 ? 'meter meter-high' : 'meter'}
            role="meter"
            aria-label="Spent today of the daily cap"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(spentShare * 100)}
            aria-valuetext={`${usd(view.spentTodayUnits)} of ${usd(view.dailyCapUnits)}`}
          >
            <div className="meter-fill" style={{ width: `${spentShare * 100}%` }} />
          </div>
          {inDoubt > 0 ? (
            <p className="warn-text">
              {plural(inDoubt, 'purchase')} {pluralWord(inDoubt, 'is', 'are')} not settled yet. Check
              unfinished purchases asks the chain and the service how each ended; Intel Desk never pays twice
              for them.
            </p>
          ) : null}
        </div>
      ) : null}
      {view && view.purchases.length > 0 ? <SpendSummary /> : null}
      {view && view.purchases.length === 0 ? <Empty title="No purchases yet." /> : null}
      {view && view.purchases.length > 0 ? (
        <table className="menu-table" aria-label="Purchases">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Handle</th>
              <th scope="col">Reports</th>
              <th scope="col">Charged</th>
              <th scope="col">State</th>
              <th scope="col">Receipt</th>
            </tr>
          </thead>
          <tbody>
            {view.purchases.map((p) => (
              <tr key={p.id} className={`state-${p.state}`}>
                <td className="nowrap">{dateTime(p.createdAt)}</td>
                <td>@{p.handle}</td>
                <td>{p.reportCount}</td>
                <td data-testid="charged">{charged(p)}</td>
                <td>
                  <span className={`pill pill-${p.state}`}>{STATE_TEXT[p.state] ?? p.state}</span>
                  {p.error ? <div className="small muted purchase-error">{p.error}</div> : null}
                  {p.state === 'in_doubt' && p.waitingFor ? (
                    <div className="small warn-text" data-testid="waiting-for">
                      {p.waitingFor.kind === 'expiry'
                        ? `Waiting until ${dateTime(p.waitingFor.until)}, when the payment authorization expires.`
                        : p.waitingFor.summary}
                      {p.checkedAt ? ` Last checked ${dateTime(p.checkedAt)}.` : ''}
                    </div>
                  ) : null}
                </td>
                <td
                  className="receipt"
                  title={
                    p.paidWith === 'payment'
                      ? `${networkName(p.network)} · paid to ${p.payTo}`
                      : 'Read with the library secret; nothing was paid.'
                  }
                >
                  {p.txHash ? (
                    <span className="nowrap">
                      <span className="mono small" title={p.txHash} data-testid="receipt">
                        {shortHash(p.txHash)}
                      </span>{' '}
                      <CopyButton value={p.txHash} label={`Copy receipt ${p.txHash}`} />
                    </span>
                  ) : (
                    '—'
                  )}
                  <div>
                    <button
                      type="button"
                      className="link"
                      aria-label={`Receipt of the purchase of ${dateTime(p.createdAt)}`}
                      onClick={() => navigate({ screen: 'purchases', purchaseId: p.id })}
                    >
                      Receipt
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
