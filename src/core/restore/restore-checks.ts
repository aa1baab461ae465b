/**
 * What the desk checks of a purchase the service says this wallet settled before it records it: an amount no
 * cap could have allowed, a date still to come, or a validity window past any time is refused; and the chain,
 * when the desk can ask it, says whether the wallet's authorization really paid that amount to that payee. Only
 * then does the purchase count as an ordinary one, dated by its block; otherwise it is kept as restored, outside
 * the caps and the spend totals (ledger/restored.ts).
 */
import type { PublicClient } from 'viem';
import { MAX_LIMIT_UNITS, TOKEN_DECIMALS } from '../../shared/money';
import { verifyOnChain } from '../receipts/verify';
import type { ChainConfirmation, RestoredPurchase } from './restored-purchase';

/** How far past the desk's clock a settlement may be dated: the chain's and the service's clocks may run ahead. */
export const SETTLED_SKEW_MS = 5 * 60_000;

const MAX_LIMIT_USD = (MAX_LIMIT_UNITS / 10n ** BigInt(TOKEN_DECIMALS)).toLocaleString('en-US');

/** Why a listed purchase cannot be a real one, or null. */
export function restoredPurchaseRefusal(purchase: RestoredPurchase, nowMs: number): string | null {
  // The largest cap settings accept: a payment the desk signed was never over it.
  if (BigInt(purchase.amount) > MAX_LIMIT_UNITS)
    return `its amount (${purchase.amount} base units) is over the largest cap the desk accepts (${MAX_LIMIT_USD} USD)`;
  const settled = Date.parse(purchase.settledAt);
  if (!(settled <= nowMs + SETTLED_SKEW_MS))
    return `it is dated ${purchase.settledAt}, after now: a purchase cannot have settled in the future`;
  for (const bound of [purchase.validAfter, purchase.validBefore])
    if (BigInt(bound) > BigInt(Number.MAX_SAFE_INTEGER))
      return `its authorization's validity window (${purchase.validAfter} to ${purchase.validBefore}) is not a time`;
  return null;
}

export async function confirmOnChain(
  chain: (network: string) => PublicClient | null,
  payer: string,
  purchase: RestoredPurchase,
): Promise<ChainConfirmation> {
  const verification = await verifyOnChain(
    {
      network: purchase.network,
      asset: purchase.asset,
      payer,
      payTo: purchase.payTo,
      amount: purchase.amount,
      nonce: purchase.nonce,
      txHash: purchase.transaction,
    },
    chain(purchase.network),
  );
  return verification.status === 'verified' && verification.blockTime !== null
    ? { onChain: true, settledAt: verification.blockTime }
    : { onChain: false };
}
