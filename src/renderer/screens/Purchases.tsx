/**
 * Every purchase with its amount, state and receipt; today's spend against the cap; totals, budgets and
 * charts of what was spent; check unfinished purchases (purchases.reconcile) against the chain.
 */
import type { ReactNode } from 'react';
import type { PurchaseView } from '../../shared/rpc';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { Empty, ErrorLine, ErrorMessage, Loading } from '../components/States';
import { dateTime, networkName, plural, shortHash, usd } from '../format';
import { purchasesText as t } from '../text/purchases';
import { download } from '../download';
import { shareOf } from '../../shared/money';
import { ReceiptDialog } from './ReceiptDialog';
import { useNavigate } from '../hooks/route';
import { CopyButton } from '../components/CopyButton';
import { SpendSummary } from './SpendSummary';
import { PurchaseRequestsBanner } from './PurchaseRequests';
import { TeamSpendLine } from './TeamSpend';

const STATE_TEXT: Record<string, string> = {
  signed: t('stateSigned'),
  sent: t('stateSent'),
  completed: t('stateCompleted'),
  failed: t('stateFailed'),
  in_doubt: t('stateInDoubt'),
};

/** What moved, not what was quoted: a failed purchase charged nothing; one in doubt, up to its price. */
function charged(p: PurchaseView): ReactNode {
  if (p.paidWith === 'library_secret') return t('librarySecret');
  if (p.restored === 'unconfirmed') {
    return (
      <span className="warn-text" title={t('restoredTitle', { amount: usd(p.amount) })}>
        {t('notConfirmed', { amount: usd(p.amount) })}
      </span>
    );
  }
  if (p.movedUnits === null) {
    return (
      <span className="warn-text" title={t('unknownTitle', { amount: usd(p.amount) })}>
        {t('unknown', { amount: usd(p.amount) })}
      </span>
    );
  }
  if (BigInt(p.movedUnits) === 0n && BigInt(p.amount) > 0n) {
    return <span title={t('nothingChargedTitle', { amount: usd(p.amount) })}>{usd(0n)}</span>;
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
        <h1 id="purchases-title">{t('title')}</h1>
        <div className="toolbar">
          <button type="button" onClick={() => reconcile.mutate({})} disabled={reconcile.isPending}>
            {reconcile.isPending ? t('checking') : t('checkUnfinished')}
          </button>
          <button
            type="button"
            onClick={() => exportCsv.mutate({ format: 'csv' })}
            disabled={!view || view.purchases.length === 0}
          >
            {t('exportCsv')}
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
      {purchases.isPending ? <Loading label={t('reading')} /> : null}
      {purchases.isError ? (
        <ErrorMessage error={purchases.error} onRetry={() => void purchases.refetch()} />
      ) : null}
      {view ? (
        <div className="spend" data-testid="daily-spend">
          <p>
            {t('today', {
              spent: usd(view.spentTodayUnits),
              cap: usd(view.dailyCapUnits),
              perPurchase: usd(view.perPurchaseCapUnits),
            })}
          </p>
          <div
            className={spentShare >= 0.8 ? 'meter meter-high' : 'meter'}
            role="meter"
            aria-label={t('meterLabel')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(spentShare * 100)}
            aria-valuetext={t('meterValue', {
              spent: usd(view.spentTodayUnits),
              cap: usd(view.dailyCapUnits),
            })}
          >
            <div className="meter-fill" style={{ width: `${spentShare * 100}%` }} />
          </div>
          {inDoubt > 0 ? (
            <p className="warn-text">
              {t(inDoubt === 1 ? 'inDoubtOne' : 'inDoubtMany', {
                purchases: plural(inDoubt, t('purchase'), t('purchases')),
              })}
            </p>
          ) : null}
        </div>
      ) : null}
      {view && view.purchases.length > 0 ? <SpendSummary /> : null}
      {view && view.purchases.length === 0 ? <Empty title={t('noPurchases')} /> : null}
      {view && view.purchases.length > 0 ? (
        <table className="menu-table" aria-label={t('tableLabel')}>
          <thead>
            <tr>
              <th scope="col">{t('columnWhen')}</th>
              <th scope="col">{t('columnHandle')}</th>
              <th scope="col">{t('columnReports')}</th>
              <th scope="col">{t('columnCharged')}</th>
              <th scope="col">{t('columnState')}</th>
              <th scope="col">{t('columnReceipt')}</th>
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
                        ? t('waitingUntil', { when: dateTime(p.waitingFor.until) })
                        : p.waitingFor.summary}
                      {p.checkedAt ? t('lastChecked', { when: dateTime(p.checkedAt) }) : ''}
                    </div>
                  ) : null}
                </td>
                <td
                  className="receipt"
                  title={
                    p.paidWith === 'payment'
                      ? t('paidTo', { network: networkName(p.network), payTo: p.payTo })
                      : t('readWithSecret')
                  }
                >
                  {p.txHash ? (
                    <span className="nowrap">
                      <span className="mono small" title={p.txHash} data-testid="receipt">
                        {shortHash(p.txHash)}
                      </span>{' '}
                      <CopyButton value={p.txHash} label={t('copyReceipt', { hash: p.txHash })} />
                    </span>
                  ) : (
                    '—'
                  )}
                  <div>
                    <button
                      type="button"
                      className="link"
                      aria-label={t('receiptOf', { when: dateTime(p.createdAt) })}
                      onClick={() => navigate({ screen: 'purchases', purchaseId: p.id })}
                    >
                      {t('receipt')}
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
