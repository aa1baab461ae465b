/**
 * The external-signing loop: while core answers that a connected wallet must sign, ask that wallet for the
 * signature of exactly the typed data core built, and hand it back to core. A keystore purchase never
 * needs this; core signs it itself.
 */
import { useCallback } from 'react';
import { useSignTypedData } from 'wagmi';
import type { PurchaseOutcome } from '../../../shared/rpc';
import { useRpc } from '../../rpc/context';
import { typedDataFor } from '../../wallet/external-sign';

/** Ends the purchase as core answers it, having the connected wallet sign when core asks. */
export function useSettlePurchase(onPurchaseId: (purchaseId: string) => void) {
  const { client } = useRpc();
  const { signTypedDataAsync } = useSignTypedData();
  return useCallback(
    async (first: PurchaseOutcome): Promise<Exclude<PurchaseOutcome, { status: 'needs_signature' }>> => {
      let outcome = first;
      while (outcome.status === 'needs_signature') {
        const { purchaseId } = outcome.request;
        onPurchaseId(purchaseId);
        const signature = await signTypedDataAsync(typedDataFor(outcome.request) as never);
        outcome = await client.call('purchase.submitSignature', { purchaseId, signature });
      }
      return outcome;
    },
    [client, onPurchaseId, signTypedDataAsync],
  );
}
