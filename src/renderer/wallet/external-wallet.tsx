/** Connecting a wallet that signs outside core (injected or WalletConnect): core only learns its address. */
import { useState } from 'react';
import { useConnect, useConnection, useDisconnect, type Connector } from 'wagmi';
import { useRpcMutation } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { shortAddress } from '../format';

export function useExternalWallet() {
  const { connectAsync, isPending } = useConnect();
  const connection = useConnection();
  const useExternal = useRpcMutation('wallet.useExternal');
  const [error, setError] = useState<string | null>(null);
  const connect = async (connector: Connector) => {
    setError(null);
    try {
      const result = await connectAsync({ connector });
      const address = result.accounts[0];
      if (address) await useExternal.mutateAsync({ address });
    } catch (e) {
      setError(e instanceof Error ? e.message : errorMessage(e));
    }
  };
  const connectedWith = (test: (connector: Connector) => boolean) =>
    connection.isConnected && connection.connector !== undefined && test(connection.connector);
  return { connect, connectedWith, isPending, error, address: connection.address };
}

export function ConnectedWallet(props: { label: string; address: string | undefined }) {
  const { disconnect } = useDisconnect();
  return (
    <p className="muted">
      {props.label} {shortAddress(props.address)} connected.{' '}
      <button type="button" className="link" onClick={() => disconnect()}>
        Disconnect
      </button>
    </p>
  );
}
