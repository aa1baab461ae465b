/**
 * The external-signing loop: while core answers that a connected wallet must sign, ask that wallet for the
 * signature of exactly the typed data core built, and hand it back to core. A keystore purchase never
 * needs this; core signs it itself.
 *
 * The wait for the wallet ends when it signs, refuses, ends its session (a WalletConnect wallet can, from the
 * phone), or when the authorization is about to expire; in every case but a signature core is told to forget
 * the request, so a signature that comes later pays nothing. The person can also stop waiting (Cancel), and a
 * wallet disconnected here stops the wait too: both abort `stop`.
 */
import { useCallback } from 'react';
import { useConnection, useSignTypedData } from 'wagmi';
import type { PurchaseOutcome } from '../../../shared/rpc';
import { useRpc } from '../../rpc/context';
import { typedDataFor } from '../../wallet/external-sign';
import { walletAnswer } from './wallet-answer';

/**
 * Ends the purchase as core answers it, having the connected wallet sign when core asks. `onWaiting` hears
 * the purchase whose signature is awaited, then null once the wallet answered.
 */
export function useSettlePurchase(onWaiting: (purchaseId: string | null) => void) {
  const { client } = useRpc();
  const { signTypedDataAsync } = useSignTypedData();
  const { connector } = useConnection();
  return useCallback(
    async (
      first: PurchaseOutcome,
      stop?: AbortSignal,
    ): Promise<Exclude<PurchaseOutcome, { status: 'needs_signature' }>> => {
      let outcome = first;
      while (outcome.status === 'needs_signature') {
        const { request } = outcome;
        const { purchaseId } = request;
        onWaiting(purchaseId);
        let signature: `0x${string}`;
        try {
          signature = await walletAnswer(
            signTypedDataAsync(typedDataFor(request) as never),
            request,
            connector,
            stop,
          );
        } catch (error) {
          await client.call('purchase.abandonSignature', { purchaseId });
          throw error;
        } finally {
          onWaiting(null);
        }
        outcome = await client.call('purchase.submitSignature', { purchaseId, signature });
      }
      return outcome;
    },
    [client, connector, onWaiting, signTypedDataAsync],
  );
}
