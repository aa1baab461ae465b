/** The live price of a choice, the wallet, and the purchase itself with its confirmation and outcome. */
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSignTypedData } from 'wagmi';
import type { PurchaseOutcome, QuoteView, Selection } from '../../shared/rpc';
import { useRpc, useRpcQuery } from '../rpc/context';
import { errorCode, errorMessage } from '../rpc/client';
import { useNavigate } from '../app/route';
import { Dialog } from '../components/Dialog';
import { WalletPanel } from '../wallet/WalletPanel';
import { typedDataFor } from '../wallet/external-sign';
import { networkName, units, usd } from '../format';

const PAYEE_LABEL: Record<QuoteView['payToStatus'], string> = {
  pinned: 'same payee as before',
  new: 'first purchase from this service: this payee will be remembered',
  changed: 'CHANGED since your last purchase',
};

const STATE_LABEL: Record<string, string> = {
  signed: 'Payment signed and written to the ledger…',
  sent: 'Paid request sent; waiting for the reports…',
  completed: 'Reports stored.',
  failed: 'Failed.',
  in_doubt: 'In doubt.',
};

/** The outcome in one sentence: shown in the outcome, and said by the panel's status region. */
function headline(outcome: PurchaseOutcome): string {
  if (outcome.status !== 'completed') return outcome.status === 'needs_signature' ? '' : outcome.message;
  const { purchase } = outcome;
  const reports = `${purchase.reportCount} report${purchase.reportCount === 1 ? '' : 's'}`;
  return purchase.paidWith === 'library_secret'
    ? `Read ${reports} with the library secret; nothing was paid.`
    : `Bought ${reports} for ${usd(purchase.amountUsd)}.`;
}

// No live-region roles here: the panel's one status region announces the outcome (see PurchasePanel).
function Outcome(props: { outcome: PurchaseOutcome; onRead: (id: string) => void }) {
  const { outcome } = props;
  if (outcome.status === 'completed') {
    const newest = outcome.purchase.reportIds[0];
    return (
      <div className="outcome ok" data-testid="purchase-outcome">
        <p>{headline(outcome)}</p>
        {outcome.purchase.txHash ? <p className="mono small">Receipt: {outcome.purchase.txHash}</p> : null}
        {newest ? (
          <button type="button" onClick={() => props.onRead(newest)}>
            Read now
          </button>
        ) : null}
      </div>
    );
  }
  if (outcome.status === 'in_doubt') {
    return (
      <div className="outcome warn" data-testid="purchase-outcome">
        <p>{outcome.message}</p>
        <p>
          Intel Desk will not pay again for this. Check it under Purchases → Reconcile; if the payment went
          through, the reports arrive there.
        </p>
      </div>
    );
  }
  if (outcome.status === 'failed') {
    return (
      <div className="outcome error" data-testid="purchase-outcome">
        <p>{outcome.message}</p>
      </div>
    );
  }
  return null;
}

const reportsText = (n: number) => `${n} report${n === 1 ? '' : 's'}`;

/** The reports of the choice already owned: left out (and what they would cost), or bought again. */
function ownedText(quote: QuoteView): string | null {
  if (quote.ownedCount === 0) return null;
  const them = quote.ownedCount === 1 ? 'it' : 'them';
  return quote.includesOwned
    ? `Includes ${reportsText(quote.ownedCount)} you already own, bought again for ${usd(quote.ownedCostUsd)}.`
    : `You already own ${reportsText(quote.ownedCount)} of this choice; ${quote.ownedCount === 1 ? 'it is' : 'they are'} left out (buying ${them} again would cost ${usd(quote.ownedCostUsd)}).`;
}

function PriceLines(props: { quote: QuoteView }) {
  const { quote } = props;
  const owned = ownedText(quote);
  return (
    <dl className="kv price">
      <div>
        <dt>Reports</dt>
        <dd>
          {quote.reportCount} × {usd(quote.unitPriceUsd)}
        </dd>
      </div>
      {owned ? (
        <div>
          <dt>Owned</dt>
          <dd className={quote.includesOwned ? 'warn-text' : ''} data-testid="owned-note">
            {owned}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Total</dt>
        <dd data-testid="price">
          <strong>{usd(quote.totalUsd)}</strong> ({units(quote.amount, quote.tokenDecimals)} USDC)
        </dd>
      </div>
      <div>
        <dt>Payee</dt>
        <dd className={quote.payToStatus === 'changed' ? 'error-text' : ''}>
          <span className="mono">{quote.payTo}</span>
          <br />
          <span className="small">{PAYEE_LABEL[quote.payToStatus]}</span>
          {quote.payToStatus === 'changed' && quote.pinnedPayTo ? (
            <span className="small mono"> (was {quote.pinnedPayTo})</span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>Network</dt>
        <dd>{networkName(quote.network)}</dd>
      </div>
    </dl>
  );
}

export function PurchasePanel(props: {
  handle: string;
  selection: Selection | null;
  /** Buy owned reports of the choice again (the person ticked it); core leaves them out otherwise. */
  includeOwned: boolean;
  /** Why nothing can be priced ("From is after To.", "You own all 5 reports."), when so. */
  emptyReason: string | null;
  /** Identifies the person's choice (not the derived selection, which a purchase itself changes). */
  choiceKey: string;
  settling: boolean;
}) {
  const { client } = useRpc();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const wallet = useRpcQuery('wallet.status', {});
  const input = {
    handle: props.handle,
    selection: props.selection ?? { kind: 'all' as const },
    ...(props.includeOwned ? { includeOwned: true } : {}),
  };
  const quote = useRpcQuery('quote.get', input, {
    enabled: props.selection !== null,
    staleTime: 20_000,
    retry: false,
  });
  const [confirming, setConfirming] = useState(false);
  const [acceptPayee, setAcceptPayee] = useState(false);
  const [acceptCap, setAcceptCap] = useState(false);
  const [acceptRebuy, setAcceptRebuy] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<PurchaseOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { signTypedDataAsync } = useSignTypedData();
  const progress = useRpcQuery('purchases.list', {}, { enabled: busy, refetchInterval: busy ? 400 : false });
  const latest = progress.data?.purchases.find((p) => p.handle.toLowerCase() === props.handle.toLowerCase());
  // Buy is disabled while paying, so focus would fall to <body>: it goes to the progress and outcome instead.
  const result = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (busy) result.current?.focus();
  }, [busy]);
  useEffect(() => {
    const focus = document.activeElement;
    if ((outcome || failure) && (focus === document.body || focus === null)) result.current?.focus();
  }, [outcome, failure]);

  const q = quote.data;
  // Core learns which token to read the balance of from the first quote; ask again once one has arrived.
  const quotedAsset = q ? `${q.network}:${q.asset}` : null;
  useEffect(() => {
    if (quotedAsset) void queryClient.invalidateQueries({ queryKey: ['wallet.status'] });
  }, [quotedAsset, queryClient]);
  const needsPayee = q?.payToStatus === 'changed';
  const needsCap = Boolean(q?.overPurchaseCap || q?.overDailyCap);
  const needsRebuy = Boolean(q?.includesOwned);
  // The last purchase's result belongs to the choice it was made for: it is not shown for another choice.
  const choiceKey = `${props.handle} ${props.choiceKey}`;
  const [resultKey, setResultKey] = useState<string | null>(null);
  const shownOutcome = resultKey === choiceKey ? outcome : null;
  const shownFailure = resultKey === choiceKey ? failure : null;
  const walletReady = Boolean(wallet.data?.address && wallet.data.unlocked);
  const withSecret = q?.paidWith === 'library_secret';

  const finish = async (result: PurchaseOutcome) => {
    if (result.status === 'needs_signature') {
      const signature = await signTypedDataAsync(typedDataFor(result.request) as never);
      return finish(
        await client.call('purchase.submitSignature', { purchaseId: result.request.purchaseId, signature }),
      );
    }
    setOutcome(result);
  };

  const buy = async () => {
    if (!q) return;
    setConfirming(false);
    setBusy(true);
    setOutcome(null);
    setFailure(null);
    setResultKey(choiceKey);
    try {
      await finish(
        await client.call('purchase.start', {
          quoteId: q.quoteId,
          confirmedAmount: q.amount,
          ...(needsPayee ? { acceptPayToChange: acceptPayee } : {}),
          ...(needsCap ? { acceptOverCap: acceptCap } : {}),
        }),
      );
    } catch (error) {
      setFailure(error instanceof Error && !('code' in error) ? error.message : errorMessage(error));
    } finally {
      setBusy(false);
      setAcceptPayee(false);
      setAcceptCap(false);
      setAcceptRebuy(false);
      await Promise.all(
        ['menu.get', 'library.list', 'purchases.list', 'wallet.status', 'quote.get'].map((key) =>
          queryClient.invalidateQueries({ queryKey: [key] }),
        ),
      );
    }
  };

  return (
    <aside className="purchase-panel" aria-label="Purchase">
      <h2>Price</h2>
      {props.selection === null ? (
        <p className="muted" data-testid="nothing-to-price">
          {props.emptyReason ?? 'Nothing chosen.'}
        </p>
      ) : null}
      {props.selection !== null && (quote.isPending || props.settling) && !q ? (
        <p className="muted" role="status">
          Asking the service for the price…
        </p>
      ) : null}
      {props.selection === null || !quote.isError ? null : errorCode(quote.error) === 'all_owned' ? (
        // Not a failure: after a purchase the same choice is simply complete, so no alert interrupts.
        <p className="muted" data-testid="nothing-to-price">
          {errorMessage(quote.error)}
        </p>
      ) : (
        <p className="error-text" role="alert">
          {errorMessage(quote.error)}
        </p>
      )}
      {q && props.selection !== null && withSecret ? (
        <>
          <p className="notice" data-testid="secret-read">
            The library secret is set, so these {q.reportCount} report{q.reportCount === 1 ? '' : 's'} are
            read with it: no payment is signed and nothing is charged (the service&apos;s price would be{' '}
            {usd(q.totalUsd)}). Clear the secret in Settings to buy with your wallet instead.
          </p>
          <button
            type="button"
            className="primary"
            disabled={busy || props.settling || quote.isFetching}
            onClick={() => void buy()}
          >
            Read {q.reportCount} report{q.reportCount === 1 ? '' : 's'} with the library secret
          </button>
        </>
      ) : null}
      {q && props.selection !== null && !withSecret ? (
        <>
          <PriceLines quote={q} />
          {q.overPurchaseCap ? <p className="warn-text">Above your per-purchase cap.</p> : null}
          {q.overDailyCap ? <p className="warn-text">Above what is left of your daily cap.</p> : null}
          {wallet.data?.balanceUsdc !== null &&
          wallet.data?.balanceUsdc !== undefined &&
          Number(wallet.data.balanceUsdc) < q.totalUsd ? (
            <p className="warn-text">Your balance ({wallet.data.balanceUsdc} USDC) is below this price.</p>
          ) : null}
          <button
            type="button"
            className="primary"
            disabled={!walletReady || busy || props.settling || quote.isFetching}
            onClick={() => setConfirming(true)}
          >
            Buy {q.reportCount} report{q.reportCount === 1 ? '' : 's'} for {usd(q.totalUsd)}
          </button>
          {!walletReady ? <p className="muted small">Set up and unlock a wallet to buy.</p> : null}
        </>
      ) : null}
      <div ref={result} tabIndex={-1} className="purchase-result">
        {/* One status region that stays in the page: screen readers announce its changes, not its arrival. */}
        <p role="status" className={busy ? 'progress' : 'sr-only'} data-testid="purchase-progress">
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          {busy
            ? latest && STATE_LABEL[latest.state]
              ? STATE_LABEL[latest.state]
              : 'Signing the payment…'
            : (shownFailure ?? (shownOutcome ? headline(shownOutcome) : ''))}
        </p>
        {shownOutcome ? (
          <Outcome outcome={shownOutcome} onRead={(id) => navigate({ screen: 'report', id })} />
        ) : null}
        {shownFailure ? (
          <p className="outcome error" data-testid="purchase-outcome">
            {shownFailure}
          </p>
        ) : null}
      </div>
      {withSecret ? null : <WalletPanel compact />}
      <Dialog
        title="Confirm the purchase"
        open={confirming && q !== undefined}
        onClose={() => setConfirming(false)}
      >
        {q ? (
          <form
            method="dialog"
            onSubmit={(event) => {
              event.preventDefault();
              void buy();
            }}
          >
            <p className="confirm-amount" data-testid="confirm-amount">
              Pay exactly <strong>{usd(q.totalUsd)}</strong> ({units(q.amount, q.tokenDecimals)} USDC) for{' '}
              {q.reportCount} report{q.reportCount === 1 ? '' : 's'} of @{q.handle}?
            </p>
            <PriceLines quote={q} />
            {needsRebuy ? (
              <label className="warn-text">
                <input
                  type="checkbox"
                  checked={acceptRebuy}
                  onChange={(e) => setAcceptRebuy(e.target.checked)}
                />{' '}
                I want to pay again for the {reportsText(q.ownedCount)} I already own
              </label>
            ) : null}
            {needsPayee ? (
              <label className="warn-text">
                <input
                  type="checkbox"
                  checked={acceptPayee}
                  onChange={(e) => setAcceptPayee(e.target.checked)}
                />{' '}
                I checked the new payee and accept it
              </label>
            ) : null}
            {needsCap ? (
              <label className="warn-text">
                <input type="checkbox" checked={acceptCap} onChange={(e) => setAcceptCap(e.target.checked)} />{' '}
                I accept going over my spending cap
              </label>
            ) : null}
            <div className="dialog-actions">
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
              <button
                type="submit"
                className="primary"
                disabled={
                  (needsPayee && !acceptPayee) || (needsCap && !acceptCap) || (needsRebuy && !acceptRebuy)
                }
              >
                Pay {usd(q.totalUsd)}
              </button>
            </div>
          </form>
        ) : null}
      </Dialog>
    </aside>
  );
}
