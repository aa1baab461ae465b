/**
 * The price panel of a menu: the live quote of the choice, the wallet, and the purchase with its
 * confirmation, progress and result. Each job is its own file in this folder.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Selection } from '../../../shared/rpc';
import { useRpcQuery } from '../../rpc/context';
import { errorCode, errorMessage } from '../../rpc/client';
import { useNavigate } from '../../hooks/route';
import { WalletPanel } from '../../wallet/WalletPanel';
import { plural, usd } from '../../format';
import { ErrorLine } from '../../components/States';
import { PriceLines } from './PriceLines';
import { BalanceNote } from './BalanceNote';
import { BudgetNote } from './BudgetNote';
import { UnresolvedNote } from './UnresolvedNote';
import { ConfirmDialog } from './ConfirmDialog';
import { ReceiptDialog } from '../ReceiptDialog';
import { Outcome } from './Outcome';
import { PurchaseProgress } from './PurchaseProgress';
import { RefusalChoice } from './RefusalChoice';
import { SecretRead } from './SecretRead';
import { TeamOwnedSync } from './TeamOwnedSync';
import { TeamQuoteNote, teamBlocksBuy, teamOffersSync } from './TeamQuoteNote';
import { useChoiceQuote } from './useChoiceQuote';
import { headline } from './labels';
import { termsOf, usePurchase } from './usePurchase';
import { purchaseText as t } from '../../text/purchase';

/** A field the person is typing in elsewhere keeps focus; otherwise focus follows the result. */
function typingElsewhere(panel: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || panel?.contains(active)) return false;
  return active.matches('input, textarea, select, [contenteditable="true"]');
}

export function PurchasePanel(props: {
  handle: string;
  selection: Selection | null;
  /** Buy owned reports of the choice again (the person ticked it); core leaves them out otherwise. */
  includeOwned: boolean;
  /** Why nothing can be priced ("You own all 5 reports.", "Nothing chosen."), when so. */
  emptyReason: string | null;
  /** Identifies the person's choice (not the derived selection, which a purchase itself changes). */
  choiceKey: string;
  settling: boolean;
}) {
  const navigate = useNavigate();
  const wallet = useRpcQuery('wallet.status', {});
  // The caps a quote is over, to say by how much.
  const settings = useRpcQuery('settings.get', {});
  const quote = useChoiceQuote(props.handle, props.selection, props.includeOwned);
  const [confirming, setConfirming] = useState(false);
  const [receiptFor, setReceiptFor] = useState<string | null>(null);
  const { run, start, acceptRefusal, cancelSignature } = usePurchase(`${props.handle} ${props.choiceKey}`);
  const busy = run?.busy ?? false;
  const panel = useRef<HTMLElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const teamNoteId = useId();

  // Buy is disabled while paying, and the price lines go once the reports are owned: focus goes to the
  // progress and then the result, never to <body>.
  const finished = run !== null && !run.busy;
  useEffect(() => {
    if ((busy || finished) && !typingElsewhere(panel.current)) result.current?.focus();
  }, [busy, finished]);

  // A quote that failed to refresh is not shown beside its error (react-query keeps the last data).
  const q = quote.isError ? undefined : quote.data;
  const walletReady = Boolean(wallet.data?.address && wallet.data.unlocked);
  const withSecret = run?.paidWith === 'library_secret';
  const priced = q !== undefined && props.selection !== null;
  const canStart = !busy && !props.settling && !quote.isFetching;
  const resultText = run?.outcome ? headline(run.outcome) : (run?.failure ?? run?.refusal?.message ?? '');
  // Just after a purchase of this choice, its result is the one sentence that the choice is owned now: the
  // reasons nothing is left to price would only say it again.
  const justBought = !busy && run?.outcome?.status === 'completed';

  return (
    <aside className="purchase-panel" aria-label={t('panelLabel')} ref={panel}>
      <h2>{t('price')}</h2>
      {props.selection === null && !justBought ? (
        <p className="muted" data-testid="nothing-to-price">
          {props.emptyReason ?? t('nothingChosen')}
        </p>
      ) : null}
      {props.selection !== null && (quote.isPending || props.settling) && !q && !quote.isError ? (
        <p className="muted" role="status">
          {t('askingPrice')}
        </p>
      ) : null}
      {props.selection === null || !quote.isError ? null : errorCode(quote.error) === 'all_owned' ? (
        // Not a failure: after a purchase the same choice is simply complete, so no alert interrupts.
        justBought ? null : (
          <p className="muted" data-testid="nothing-to-price">
            {errorMessage(quote.error)}
          </p>
        )
      ) : (
        <ErrorLine error={quote.error} testId="quote-error" />
      )}
      {priced ? (
        <>
          <PriceLines quote={q} />
          {q.overPurchaseCap ? (
            <p className="warn-text" data-testid="over-purchase-cap">
              {t('overPurchaseCap', {
                amount: usd(q.amount),
                cap: settings.data ? t('capOf', { cap: usd(settings.data.perPurchaseCapUnits) }) : '',
              })}
            </p>
          ) : null}
          {q.overDailyCap ? (
            <p className="warn-text" data-testid="over-daily-cap">
              {t('overDailyCap', {
                amount: usd(q.amount),
                cap: settings.data ? t('capOf', { cap: usd(settings.data.dailyCapUnits) }) : '',
              })}
            </p>
          ) : null}
          {q.overHandleBudget ? <BudgetNote quote={q} /> : null}
          {q.team ? (
            <TeamQuoteNote team={q.team} id={teamNoteId} onAskAgain={() => void quote.refetch()} />
          ) : null}
          {q.payable ? (
            <>
              <BalanceNote quote={q} wallet={wallet.data} />
              {q.unresolved ? (
                <UnresolvedNote key={q.unresolved.purchaseId} unresolved={q.unresolved} sending={busy} />
              ) : null}
              <button
                type="button"
                className="primary"
                disabled={!walletReady || !canStart || q.unresolved !== null || teamBlocksBuy(q.team)}
                aria-describedby={teamBlocksBuy(q.team) ? teamNoteId : undefined}
                onClick={() => setConfirming(true)}
              >
                {t('buy', {
                  reports: plural(q.reportCount, t('report'), t('reports')),
                  amount: usd(q.amount),
                })}
              </button>
              {!walletReady ? <p className="muted small">{t('setUpWallet')}</p> : null}
            </>
          ) : (
            <p className="muted small" data-testid="not-payable">
              {t('notPayable')}
            </p>
          )}
          {q.secretAvailable ? (
            <SecretRead
              quote={q}
              disabled={!canStart}
              onRead={() => void start(termsOf(q, { payee: false, cap: false }, 'library_secret'))}
            />
          ) : null}
        </>
      ) : null}
      <div ref={result} tabIndex={-1} className="purchase-result" data-testid="purchase-result">
        <PurchaseProgress
          steps={run?.steps ?? []}
          busy={busy}
          result={resultText}
          withSecret={withSecret}
          onCancel={run?.awaitingWallet ? () => cancelSignature() : undefined}
        />
        {run?.outcome ? (
          <Outcome
            outcome={run.outcome}
            onRead={(id) => navigate({ screen: 'report', id })}
            onReceipt={setReceiptFor}
          />
        ) : null}
        {run?.failure ? (
          <p className="outcome error" data-testid="purchase-outcome">
            {run.failure}
          </p>
        ) : null}
        {run?.failureCode === 'team_owned' && !teamOffersSync(q?.team ?? null) ? (
          <TeamOwnedSync onSynced={() => void quote.refetch()} />
        ) : null}
        {run?.refusal ? (
          <RefusalChoice
            refusal={run.refusal}
            confirmed={run.amount}
            tokenDecimals={run.tokenDecimals}
            busy={busy}
            onAccept={() => void acceptRefusal()}
          />
        ) : null}
      </div>
      {q && !q.payable ? null : <WalletPanel compact />}
      <ConfirmDialog
        quote={q}
        open={confirming && q !== undefined}
        onClose={() => setConfirming(false)}
        onConfirm={(accepted) => {
          setConfirming(false);
          if (q) void start(termsOf(q, accepted));
        }}
      />
      {receiptFor ? <ReceiptDialog purchaseId={receiptFor} onClose={() => setReceiptFor(null)} /> : null}
    </aside>
  );
}
