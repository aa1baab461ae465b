/**
 * One purchase of the choice on screen, from Buy to its result: the steps core reports as they happen
 * (events, not polling, so a purchase of half a second still shows each), the outcome, and a refusal that
 * one click can answer (a new price or payee). The result belongs to the choice it was made for: another
 * choice does not show it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useConnection } from 'wagmi';
import type { PaidWith, PurchaseOutcome, QuoteView } from '../../../shared/rpc';
import type { PurchaseStep } from '../../../shared/events';
import type { RpcErrorDetails } from '../../../shared/rpc-errors';
import { useDeskEvent, useRpc } from '../../rpc/context';
import { errorCode, errorMessage, refusalDetails } from '../../rpc/client';
import { useSettlePurchase } from './signing';
import { CANCELLED, DISCONNECTED } from './wallet-answer';
import { purchaseText as t } from '../../text/purchase';

/** A refusal the person can answer in one click; what they accept is in the details core sent. */
export type Refusal =
  | { code: 'quote_changed'; message: string; details: RpcErrorDetails['quote_changed'] }
  | { code: 'payee_changed'; message: string; details: RpcErrorDetails['payee_changed'] };

export interface PurchaseRun {
  /** The choice the purchase was made for. */
  choiceKey: string;
  /** The quote confirmed last (a new price accepted in one click replaces it), and its amount. */
  quoteId: string;
  amount: string;
  tokenDecimals: number;
  paidWith: PaidWith;
  purchaseId: string | null;
  /** A connected wallet is being asked to sign: the person may stop waiting (Cancel). */
  awaitingWallet: boolean;
  steps: PurchaseStep[];
  busy: boolean;
  outcome: PurchaseOutcome | null;
  failure: string | null;
  /** The refusal's code, for the one a click can answer elsewhere (team_owned: sync with the team). */
  failureCode: string | null;
  refusal: Refusal | null;
}

export interface StartTerms {
  quoteId: string;
  amount: string;
  tokenDecimals: number;
  /** What the person chose: Buy, or Read with the library secret. Always said, never left to core. */
  paidWith: PaidWith;
  acceptPayToChange?: boolean;
  acceptOverCap?: boolean;
  /** With acceptOverCap on the keystore: its passphrase, to core only (decision 0022). */
  passphrase?: string;
}

function refusalOf(error: unknown): Refusal | null {
  const quote = refusalDetails(error, 'quote_changed');
  if (quote) return { code: 'quote_changed', message: errorMessage(error), details: quote };
  const payee = refusalDetails(error, 'payee_changed');
  if (payee) return { code: 'payee_changed', message: errorMessage(error), details: payee };
  return null;
}

/**
 * Core's sentence for a refusal, or the window's own where core's names a command: the team owning reports
 * is answered by the Sync button beside it, not by "intel-desk team sync".
 */
function failureOf(error: unknown): string {
  const owned = refusalDetails(error, 'team_owned');
  if (owned) {
    const who = owned.analyst
      ? owned.deskId
        ? t('teamWho', { analyst: owned.analyst, desk: owned.deskId })
        : owned.analyst
      : t('teamAnotherDesk');
    return t('teamOwnedRefusal', { count: owned.count, who });
  }
  return error instanceof Error && !('code' in error) ? error.message : errorMessage(error);
}

export function usePurchase(choiceKey: string) {
  const { client } = useRpc();
  const [run, setRun] = useState<PurchaseRun | null>(null);
  const [terms, setTerms] = useState<StartTerms | null>(null);

  useDeskEvent((event) => {
    if (event.type !== 'purchase.step') return;
    setRun((current) => {
      if (!current) return current;
      const ours =
        (current.purchaseId !== null && event.purchaseId === current.purchaseId) ||
        (event.quoteId !== null && event.quoteId === current.quoteId);
      if (!ours || current.steps.includes(event.step)) return current;
      return { ...current, purchaseId: event.purchaseId, steps: [...current.steps, event.step] };
    });
  });

  const noteWaiting = useCallback(
    (purchaseId: string | null) =>
      setRun((current) =>
        current
          ? { ...current, purchaseId: purchaseId ?? current.purchaseId, awaitingWallet: purchaseId !== null }
          : current,
      ),
    [],
  );
  const settle = useSettlePurchase(noteWaiting);
  const stop = useRef<AbortController | null>(null);
  /** Stops waiting for the wallet's signature: core forgets the request, and nothing is paid. */
  const cancelSignature = useCallback((reason: string = CANCELLED) => stop.current?.abort(reason), []);

  // A wallet disconnected here (its Disconnect, or the session ended) will not sign: waiting on would leave
  // "Signing the payment…" beside "Set up and unlock a wallet".
  const { status } = useConnection();
  const awaiting = run?.awaitingWallet ?? false;
  useEffect(() => {
    if (awaiting && status === 'disconnected') cancelSignature(DISCONNECTED);
  }, [awaiting, cancelSignature, status]);

  const start = async (next: StartTerms) => {
    setTerms(next);
    setRun({
      choiceKey,
      quoteId: next.quoteId,
      amount: next.amount,
      tokenDecimals: next.tokenDecimals,
      paidWith: next.paidWith,
      purchaseId: null,
      awaitingWallet: false,
      steps: [],
      busy: true,
      outcome: null,
      failure: null,
      failureCode: null,
      refusal: null,
    });
    const finish = (result: Partial<PurchaseRun>) =>
      setRun((current) =>
        current ? { ...current, ...result, busy: false, awaitingWallet: false } : current,
      );
    const controller = new AbortController();
    stop.current = controller;
    try {
      const outcome = await settle(
        await client.call('purchase.start', {
          quoteId: next.quoteId,
          confirmedAmount: next.amount,
          paidWith: next.paidWith,
          ...(next.acceptPayToChange !== undefined ? { acceptPayToChange: next.acceptPayToChange } : {}),
          ...(next.acceptOverCap !== undefined ? { acceptOverCap: next.acceptOverCap } : {}),
          ...(next.passphrase !== undefined ? { passphrase: next.passphrase } : {}),
        }),
        controller.signal,
      );
      finish({ outcome });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) finish({ refusal });
      else
        finish({
          failure: failureOf(error),
          failureCode: errorCode(error),
        });
    }
  };

  /** Accepts what the refusal names (the fresh price, or the new payee) and buys at once. */
  const acceptRefusal = async () => {
    const refusal = run?.refusal;
    if (!refusal || !terms) return;
    if (refusal.code === 'quote_changed')
      await start({ ...terms, quoteId: refusal.details.quoteId, amount: refusal.details.amount });
    else await start({ ...terms, acceptPayToChange: true });
  };

  // The result belongs to the choice it was made for: hidden while another is shown, back with it.
  const shown = run && run.choiceKey === choiceKey ? run : null;
  return { run: shown, start, acceptRefusal, cancelSignature };
}

/** The quote's terms as purchase.start wants them, with what the person ticked in the confirmation. */
export function termsOf(
  quote: QuoteView,
  accepted: { payee: boolean; cap: boolean; passphrase?: string },
  paidWith: PaidWith = 'payment',
): StartTerms {
  return {
    quoteId: quote.quoteId,
    amount: quote.amount,
    tokenDecimals: quote.tokenDecimals,
    paidWith,
    ...(quote.payToStatus === 'changed' ? { acceptPayToChange: accepted.payee } : {}),
    ...(quote.overPurchaseCap || quote.overDailyCap || quote.overHandleBudget
      ? {
          acceptOverCap: accepted.cap,
          ...(accepted.passphrase !== undefined ? { passphrase: accepted.passphrase } : {}),
        }
      : {}),
  };
}
