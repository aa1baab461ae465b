/** One purchase's receipt: the evidence the desk kept, checked on chain on request, exported as JSON or PDF. */
import { useState } from 'react';
import {
  noTransactionText,
  serviceNamedOtherText,
  type Receipt,
  type ReceiptVerification,
} from '../../shared/receipt';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { Dialog } from '../components/Dialog';
import { ErrorLine, ErrorMessage, Loading } from '../components/States';
import { download } from '../download';
import { dateTime, networkName, number, usd } from '../format';
import { RECEIPT_TEXT, receiptText as t } from '../text/receipt';

function Verification(props: { receipt: Receipt; verification: ReceiptVerification | null }) {
  const v = props.verification;
  if (!props.receipt.paid) return <p>{t('secretRead')}</p>;
  if (v === null) return null;
  const other = serviceNamedOtherText(v);
  if (v.status === 'verified') {
    return (
      <div data-testid="verification">
        <p className="ok-text">{t('verified', { block: v.blockNumber, time: dateTime(v.blockTime) })}</p>
        {other && (
          <p className="warn-text" style={{ overflowWrap: 'anywhere' }}>
            {other}
          </p>
        )}
      </div>
    );
  }
  if (v.status === 'mismatch') {
    return (
      <div className="error-text" data-testid="verification">
        <p>{t('mismatch')}</p>
        <ul>
          {v.checks
            .filter((c) => !c.ok)
            .map((c) => (
              <li key={c.name}>
                {t('expected', { name: c.name })}
                <span className="mono">{c.expected}</span>
                {t('chainHas')}
                <span className="mono">{c.found ?? t('nothing')}</span>
              </li>
            ))}
        </ul>
        {other && <p style={{ overflowWrap: 'anywhere' }}>{other}</p>}
      </div>
    );
  }
  return (
    <p className="warn-text" data-testid="verification">
      {v.message}
    </p>
  );
}

const PLAIN_FIELDS = new Set(['handle', 'date', 'amount', 'network']);

function Fields(props: { receipt: Receipt }) {
  const r = props.receipt;
  const rows: [keyof typeof RECEIPT_TEXT, string][] = [
    ['handle', `@${r.handle}`],
    ['date', dateTime(r.createdAt)],
    ['service', r.serviceUrl],
    ['amount', r.paid ? t('amountPaid', { amount: usd(r.amount), units: r.amount }) : t('nothingPaid')],
    ['network', r.paid ? networkName(r.network) : '—'],
    ['payer', r.payer || '—'],
    ['payee', r.payee || '—'],
    ['nonce', r.authorization?.nonce ?? '—'],
    ['transaction', r.txHash ?? noTransactionText(r)],
  ];
  return (
    <dl className="receipt-fields">
      {rows.map(([key, value]) => (
        <div key={key}>
          <dt>{t(key)}</dt>
          <dd className={PLAIN_FIELDS.has(key) ? undefined : 'mono'}>
            {key === 'handle' ? <bdi>{value}</bdi> : value}
          </dd>
        </div>
      ))}
      {r.explorerUrl ? (
        <div>
          <dt>{t('explorer')}</dt>
          <dd>
            <a href={r.explorerUrl} target="_blank" rel="noreferrer noopener">
              {t('viewTransaction')}
            </a>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

export function ReceiptDialog(props: { purchaseId: string; onClose: () => void }) {
  const [verify, setVerify] = useState(false);
  const receipt = useRpcQuery('receipt.get', { purchaseId: props.purchaseId, verify });
  const exporter = useRpcMutation('receipts.export', { onSuccess: download });
  const exportAs = (format: 'json' | 'pdf') =>
    exporter.mutate({ purchaseIds: [props.purchaseId], format, verify });
  return (
    // The handle in the title too: opened from a menu's result, the dialog is read apart from any list.
    <Dialog
      title={receipt.data ? t('titleFor', { handle: receipt.data.handle }) : t('title')}
      open
      onClose={props.onClose}
    >
      {receipt.isPending ? <Loading label={verify ? t('checkingChain') : t('readingLedger')} /> : null}
      {receipt.isError ? <ErrorMessage error={receipt.error} onRetry={() => void receipt.refetch()} /> : null}
      {receipt.data ? (
        <>
          <Fields receipt={receipt.data} />
          <Verification receipt={receipt.data} verification={receipt.data.verification} />
          <details>
            <summary>{t('delivered', { count: number(receipt.data.reports.length) })}</summary>
            <ul className="mono small">
              {receipt.data.reports.map((report) => (
                <li key={report.id}>
                  {report.id} {report.sha256 ?? t('answerNotKept')}
                  {report.inLibrary ? '' : t('notInLibrary')}
                </li>
              ))}
            </ul>
          </details>
        </>
      ) : null}
      <ErrorLine error={exporter.error} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose}>
          {t('close')}
        </button>
        <button type="button" onClick={() => exportAs('json')}>
          {t('exportJson')}
        </button>
        <button type="button" onClick={() => exportAs('pdf')}>
          {t('exportPdf')}
        </button>
        {receipt.data?.paid ? (
          <button
            type="button"
            className="primary"
            disabled={verify && receipt.isFetching}
            onClick={() => (verify ? void receipt.refetch() : setVerify(true))}
          >
            {verify ? t('checkAgain') : t('verify')}
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
