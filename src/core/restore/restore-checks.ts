/**
 * What the desk checks of a purchase the service says this wallet settled before it records it: an amount no
 * cap could have allowed, a date still to come, or a validity window past any time is refused; and the chain,
 * when the desk can ask it, says whether the wallet's authorization really paid that amount to that payee. Only
 * then does the purchase count as an ordinary one, dated by its block; a chain that contradicts the service
 * refuses it; a chain the desk cannot ask leaves it restored, outside the caps and the spend totals
 * (ledger/restored.ts).
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

/** What the chain says of a listed purchase the desk cannot take: it contradicts the service. */
export interface ChainContradiction {
  contradicted: string;
}

/**
 * The chain's word on a listed purchase: confirmed (with its block's time), contradicted (this wallet never
 * used that authorization, or the payment differs), or silent (no RPC for its network, or it did not answer).
 */
export async function confirmOnChain(
  chain: (network: string) => PublicClient | null,
  payer: string,
  purchase: RestoredPurchase,
): Promise<ChainConfirmation | ChainContradiction> {
  const verification = await verifyOnChain(
    {
      network: purchase.network,
      asset: purchase.asset,
      payer,
      payTo: purchase.payTo,
      amount: purchase.amount,
      nonce: purchase.nonce,
      txHash: purchase.transaction,
      createdAt: purchase.settledAt,
    },
    chain(purchase.network),
  );
  if (verification.status === 'verified' && verification.blockTime !== null)
    return { onChain: true, settledAt: verification.blockTime };
  if (verification.status === 'not_settled')
    return {
      contradicted:
        "the chain shows no payment by this wallet with its authorization: it is another wallet's purchase, or not settled yet (if it settled moments ago, restore again later)",
    };
  if (verification.status === 'mismatch') {
    const failed = verification.checks.filter((check) => !check.ok);
    const detail = failed.map((c) => `${c.name}: listed ${c.expected}, on chain ${c.found ?? 'none'}`);
    return {
      contradicted: `the chain's record of its payment differs (${detail.join('; ') || 'the transaction failed'})`,
    };
  }
  return { onChain: false };
}
