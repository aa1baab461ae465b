/**
 * What a paid request that did not come back with the reports means (safety rule 5). Once the payment has
 * left, only a 200 with the reports completes it. A refusal (a 402 with x402's answer: the service or its
 * facilitator says it took nothing) fails the purchase only when it can no longer be wrong: the chain shows the
 * authorization unused at a block past its validBefore, or, when no chain answers, the desk's own clock is
 * past validBefore by a margin (a refusal does not void a signed authorization: whoever holds it can settle it
 * until then). Anything else (a gateway's 5xx, a 429, a page of its own, a 400, 404 or 409, a settlement
 * error, a lost answer) leaves the purchase in doubt, to be reconciled on chain.
 */
import type { PublicClient } from 'viem';
import { readableDate } from '../../shared/analytics-shape';
import type { PurchaseWait } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import { authorizationUsed, refusalBelievableAt } from './chain-state';
import type { DeskErrorCode } from '../../shared/error-codes';
import { transactionHash } from '../../shared/wire';

export interface Verdict {
  state: 'failed' | 'in_doubt';
  code: DeskErrorCode;
  message: string;
  txHash: string | null;
  /** What an in-doubt purchase waits for. */
  waiting: PurchaseWait | null;
}

export interface SentPayment {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  validBefore: bigint;
}

function transactionOf(error: DeskError | null): string | null {
  return transactionHash(error?.details['transaction']);
}

/**
 * True when the answer is x402's refusal: a 402 that names why (a payment-required answer in its header or
 * body, or the spec's error) and no settlement transaction. A gateway between the desk and the service answers
 * 502, 503, 504 or 429, or a page of its own, after the service may have settled: none of those says the service
 * took nothing. Even a refusal is a claim, which the chain (or the authorization's expiry) must confirm before
 * it fails anything.
 */
function isRefusal(error: DeskError): boolean {
  if (error.kind !== 'service' || transactionOf(error) !== null) return false;
  return error.details['status'] === 402 && error.code !== 'service_unexpected_status';
}

function inDoubt(
  error: DeskError | null,
  reason: string,
  payment: SentPayment,
  refusal: string | null,
): Verdict {
  const closesAt = new Date(Number(payment.validBefore) * 1000).toISOString();
  const until = readableDate(closesAt);
  const txHash = transactionOf(error);
  const tx = txHash ? ` The service named transaction ${txHash}.` : '';
  return {
    state: 'in_doubt',
    code: error?.code ?? 'answer_lost',
    message: `${reason}${tx} The payment may have settled; it is held as in doubt and checked on chain (it can settle until ${until}), and Intel Desk never pays for it again by itself.`,
    txHash,
    waiting: {
      kind: 'expiry',
      until: closesAt,
      summary: `Waiting until ${until}.`,
      ...(refusal ? { refusal } : {}),
    },
  };
}

/**
 * Judges a paid request that failed after it left. `chain` is the read-only client for the payment's
 * network, or null when none is known; a chain that does not answer counts as none.
 */
export async function judgeAfterSend(
  error: unknown,
  payment: SentPayment,
  chain: PublicClient | null,
): Promise<Verdict> {
  const deskError = error instanceof DeskError ? error : null;
  const what = deskError?.message ?? 'unknown error';
  if (!deskError || !isRefusal(deskError)) {
    const status = deskError?.details['status'];
    const reason =
      !deskError || deskError.kind === 'network'
        ? `The answer was lost (${what}).`
        : `The answer does not prove the payment failed${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${what}`;
    return inDoubt(deskError, reason, payment, null);
  }
  if (chain) {
    try {
      // Read at one block: the state and the time that says whether it can still change.
      const block = await chain.getBlock({ blockTag: 'latest' });
      const used = await authorizationUsed(payment, chain, block.number);
      if (used) {
        return inDoubt(
          deskError,
          `The service refused the payment (${what}), yet the chain shows it used.`,
          payment,
          null,
        );
      }
      if (block.timestamp >= payment.validBefore) {
        return {
          state: 'failed',
          code: deskError.code,
          message: deskError.message,
          txHash: null,
          waiting: null,
        };
      }
      // A refusal does not void the signed authorization: whoever holds it (the service, a gateway that
      // retries, anyone on the path) can still settle it until validBefore; reconciliation decides then.
      return inDoubt(
        deskError,
        `The service refused the payment (${what}). Nothing has moved yet, but the signed authorization could still be settled by whoever holds it.`,
        payment,
        what,
      );
    } catch {
      // No answer from the chain: judged as without one.
    }
  }
  const believable = readableDate(new Date(refusalBelievableAt(payment.validBefore)).toISOString());
  return inDoubt(
    deskError,
    `The service refused the payment (${what}), but no chain could be asked whether money moved, so Intel Desk believes the refusal only after ${believable}.`,
    payment,
    what,
  );
}
