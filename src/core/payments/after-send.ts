/**
 * What a paid request that did not come back with the reports means (safety rule 5). Once the payment has
 * left, only an answer that proves nothing settled fails the purchase: the spec's 400/404 (refused before
 * payment), and a 402 refusal of the payment itself, confirmed on chain where an RPC URL is known and then
 * only once the chain's clock has passed the authorization's validBefore (before that, anyone holding the
 * signed authorization can still settle it). Anything
 * else (a gateway's 5xx, a 429, a 409 after a resend, a settlement error, a malformed or lost answer) leaves
 * the purchase in doubt, to be reconciled on chain.
 */
import type { PublicClient } from 'viem';
import { readableDate } from '../../shared/analytics-shape';
import { DeskError } from '../errors';
import { authorizationUsed } from './reconcile';

/** 402 errors the reference service gives while checking a payment, before any settlement is attempted. */
const REFUSED_BEFORE_SETTLEMENT = new Set([
  'insufficient_payment',
  'invalid_signature',
  'payee_mismatch',
  'amount_mismatch',
  'asset_mismatch',
  'network_mismatch',
  'unsupported_scheme',
  'insufficient_balance',
  'invalid_payment_payload',
  'authorization_expired',
  'authorization_not_yet_valid',
  'payment_rejected',
  'payment_header_ignored',
]);

export interface Verdict {
  state: 'failed' | 'in_doubt';
  code: string;
  message: string;
  txHash: string | null;
}

export interface SentPayment {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  validBefore: bigint;
}

/** True when the service's answer says it refused the payment before anything could settle. */
export function refusedBeforeSettlement(error: DeskError): boolean {
  if (error.kind !== 'service') return false;
  const status = error.details['status'];
  if (status === 400 || status === 404) return true;
  if (error.code === 'payment_header_ignored') return true;
  return status === 402 && REFUSED_BEFORE_SETTLEMENT.has(error.code);
}

function transactionOf(error: DeskError | null): string | null {
  const tx = error?.details['transaction'];
  return typeof tx === 'string' && /^0x[0-9a-fA-F]{64}$/.test(tx) ? tx : null;
}

function inDoubt(error: DeskError | null, reason: string, payment: SentPayment): Verdict {
  const until = readableDate(new Date(Number(payment.validBefore) * 1000).toISOString());
  const txHash = transactionOf(error);
  const tx = txHash ? ` The service named transaction ${txHash}.` : '';
  return {
    state: 'in_doubt',
    code: error?.code ?? 'answer_lost',
    message: `${reason}${tx} The payment may have settled; it is held as in doubt and checked on chain (it can settle until ${until}), and Intel Desk never pays for it again by itself.`,
    txHash,
  };
}

/**
 * Judges a paid request that failed after it left. `chain` is the read-only client for the payment's
 * network, or null when no RPC URL is known (then the service's refusal is taken at its word). With a chain,
 * a refusal fails the purchase only once the authorization can no longer settle.
 */
export async function judgeAfterSend(
  error: unknown,
  payment: SentPayment,
  chain: PublicClient | null,
): Promise<Verdict> {
  const desk = error instanceof DeskError ? error : null;
  const what = desk?.message ?? 'unknown error';
  if (!desk || !refusedBeforeSettlement(desk)) {
    const status = desk?.details['status'];
    const reason =
      !desk || desk.kind === 'network'
        ? `The answer was lost (${what}).`
        : `The answer does not prove the payment failed${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${what}`;
    return inDoubt(desk, reason, payment);
  }
  if (chain) {
    let used: boolean;
    let chainSeconds: number;
    try {
      // Read at one block: the state and the time that says whether it can still change.
      const block = await chain.getBlock({ blockTag: 'latest' });
      chainSeconds = Number(block.timestamp);
      used = await authorizationUsed(payment, chain, block.number);
    } catch {
      return inDoubt(
        desk,
        `The service refused the payment (${what}), but the chain could not be asked to confirm nothing moved.`,
        payment,
      );
    }
    if (used) {
      return inDoubt(
        desk,
        `The service refused the payment (${what}), yet the chain shows it used.`,
        payment,
      );
    }
    // A refusal does not void the signed authorization: whoever holds it (the service, a gateway that
    // retries, anyone on the path) can still settle it until validBefore. Only the chain's clock past that
    // makes the refusal final; until then the purchase is in doubt and reconciliation decides.
    if (BigInt(chainSeconds) < payment.validBefore) {
      return inDoubt(
        desk,
        `The service refused the payment (${what}). Nothing has moved yet, but the signed authorization could still be settled by whoever holds it.`,
        payment,
      );
    }
  }
  return { state: 'failed', code: desk.code, message: desk.message, txHash: null };
}
