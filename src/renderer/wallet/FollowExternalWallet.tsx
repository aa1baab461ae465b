/**
 * Keeps core's idea of the connected wallet in step with the wallet. A WalletConnect wallet may move to
 * another account from the phone (accountsChanged, or a session update): core builds each authorization from
 * the address it was told, so without this the wallet would be asked to sign for an account it no longer
 * uses. And when the wallet goes away (Disconnect here, or the session ended from the phone), core forgets
 * it: otherwise the panel kept showing its address and balance, and a purchase would wait on a wallet that
 * can no longer be asked.
 */
import { useEffect, useRef } from 'react';
import { useConnection } from 'wagmi';
import { useRpc, useRpcMutation } from '../rpc/context';
import { kindOf, rememberExternal } from './last-external';

export function FollowExternalWallet() {
  const { address, isConnected, connector, status } = useConnection();
  const { client } = useRpc();
  const { mutate: followAddress } = useRpcMutation('wallet.useExternal');
  const { mutate: forgetExternal } = useRpcMutation('wallet.forgetExternal');
  const wasConnected = useRef(false);
  useEffect(() => {
    if (!isConnected || !address || !connector || connector.id === 'intelDesk') return;
    let current = true;
    void client.call('wallet.status', {}).then((view) => {
      if (current && view.kind === 'external' && view.address?.toLowerCase() !== address.toLowerCase())
        followAddress(
          { address },
          { onSuccess: () => rememberExternal({ address, kind: kindOf(connector) }) },
        );
    });
    return () => {
      current = false;
    };
  }, [address, client, connector, isConnected, followAddress]);
  useEffect(() => {
    if (isConnected && connector && connector.id !== 'intelDesk') {
      wasConnected.current = true;
      return;
    }
    // Reconnecting is not gone: only a wallet that was connected in this window and is now disconnected.
    if (status !== 'disconnected' || !wasConnected.current) return;
    wasConnected.current = false;
    forgetExternal({});
  }, [connector, forgetExternal, isConnected, status]);
  return null;
}
