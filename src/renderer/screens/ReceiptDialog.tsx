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
import { dateTime, networkName, usd } from '../format';

function Verification(props: { receipt: Receipt; verification: ReceiptVerification | null }) {
  const v = props.verification;
  if (!props.receipt.paid)
    return <p>Read with the library secret: nothing was paid, so there is nothing on chain.</p>;
  if (v === null) return null;
  const other = serviceNamedOtherText(v);
  if (v.status === 'verified') {
    return (
      <div data-testid="verification">
        <p className="ok-text">
          Verified on chain: block {v.blockNumber}, {dateTime(v.blockTime)}. Payer, payee, amount and nonce
          match the token&apos;s own events.
        </p>
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
        <p>Does not match the chain:</p>
        <ul>
          {v.checks
            .filter((c) => !c.ok)
            .map((c) => (
              <li key={c.name}>
                {c.name}: expected <span className="mono">{c.expected}</span>, the chain has{' '}
                <span className="mono">{c.found ?? 'nothing'}</span>
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

const PLAIN_FIELDS = new Set(['Handle', 'Date', 'Amount', 'Network']);

function Fields(props: { receipt: Receipt }) {
  const r = props.receipt;
  const rows: [string, string][] = [
    ['Handle', `@${r.handle}`],
    ['Date', dateTime(r.createdAt)],
    ['Service', r.serviceUrl],
    ['Amount', r.paid ? `${usd(r.amount)} (${r.amount} token units)` : 'nothing paid'],
    ['Network', r.paid ? networkName(r.network) : '—'],
    ['Payer', r.payer || '—'],
    ['Payee', r.payee || '—'],
    ['Nonce', r.authorization?.nonce ?? '—'],
    ['Transaction', r.txHash ?? noTransactionText(r)],
  ];
  return (
    <dl className="receipt-fields">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className={PLAIN_FIELDS.has(label) ? undefined : 'mono'}>
            {label === 'Handle' ? <bdi>{value}</bdi> : value}
          </dd>
        </div>
      ))}
      {r.explorerUrl ? (
        <div>
          <dt>Explorer</dt>
          <dd>
            <a href={r.explorerUrl} target="_blank" rel="noreferrer noopener">
              View the transaction
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
      title={receipt.data ? `Receipt for @${receipt.data.handle}` : 'Receipt'}
      open
      onClose={props.onClose}
    >
      {receipt.isPending ? <Loading label={verify ? 'Checking the chain…' : 'Reading the ledger…'} /> : null}
      {receipt.isError ? <ErrorMessage error={receipt.error} onRetry={() => void receipt.refetch()} /> : null}
      {receipt.data ? (
        <>
          <Fields receipt={receipt.data} />
          <Verification receipt={receipt.data} verification={receipt.data.verification} />
          <details>
            <summary>Reports delivered ({receipt.data.reports.length}), SHA-256 as received</summary>
            <ul className="mono small">
              {receipt.data.reports.map((report) => (
                <li key={report.id}>
                  {report.id} {report.sha256 ?? '(answer not kept)'}
                  {report.inLibrary ? '' : ' (not in the library)'}
                </li>
              ))}
            </ul>
          </details>
        </>
      ) : null}
      <ErrorLine error={exporter.error} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
        <button type="button" onClick={() => exportAs('json')}>
          Export JSON
        </button>
        <button type="button" onClick={() => exportAs('pdf')}>
          Export PDF
        </button>
        {receipt.data?.paid ? (
          <button
            type="button"
            className="primary"
            disabled={verify && receipt.isFetching}
            onClick={() => (verify ? void receipt.refetch() : setVerify(true))}
          >
            {verify ? 'Check again' : 'Verify on chain'}
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
