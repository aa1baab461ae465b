/**
 * Keeps core's idea of the connected wallet's address in step with the wallet: a WalletConnect wallet may
 * move to another account from the phone (accountsChanged, or a session update). Core builds each
 * authorization from the address it was told, so without this the wallet would be asked to sign for an
 * account it no longer uses.
 */
import { useEffect } from 'react';
import { useConnection } from 'wagmi';
import { useRpc, useRpcMutation } from '../rpc/context';

export function FollowExternalWallet() {
  const { address, isConnected, connector } = useConnection();
  const { client } = useRpc();
  const useExternal = useRpcMutation('wallet.useExternal');
  const { mutate } = useExternal;
  useEffect(() => {
    if (!isConnected || !address || !connector || connector.id === 'intelDesk') return;
    let current = true;
    void client.call('wallet.status', {}).then((status) => {
      if (current && status.kind === 'external' && status.address?.toLowerCase() !== address.toLowerCase())
        mutate({ address });
    });
    return () => {
      current = false;
    };
  }, [address, client, connector, isConnected, mutate]);
  return null;
}
