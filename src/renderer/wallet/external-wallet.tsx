/** Connecting a wallet that signs outside core (injected or WalletConnect): core only learns its address. */
import { useEffect, useState } from 'react';
import { useConnect, useConnection, useConnectors, useDisconnect, type Connector } from 'wagmi';
import { useRpcMutation } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { shortAddress } from '../format';
import { forgetRememberedExternal, kindOf, rememberExternal } from './last-external';
import { walletText as t } from '../text/wallet';

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
      if (address) {
        await useExternal.mutateAsync({ address });
        rememberExternal({ address, kind: kindOf(connector) });
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : errorMessage(e));
    }
  };
  const connectedWith = (test: (connector: Connector) => boolean) =>
    connection.isConnected && connection.connector !== undefined && test(connection.connector);
  return { connect, connectedWith, isPending, error, address: connection.address };
}

/** `paying`: core pays with it; when not (core forgot it at a restart), "connected" alone would mislead. */
export function ConnectedWallet(props: { label: string; address: string | undefined; paying?: boolean }) {
  const { disconnect } = useDisconnect();
  return (
    <p className="muted">
      {props.label} {shortAddress(props.address)}{' '}
      {props.paying === false ? t('connectedNotPaying') : t('connected')}{' '}
      <button
        type="button"
        className="link"
        onClick={() => {
          // The person chose the keystore again: no warning about a wallet they let go.
          forgetRememberedExternal();
          disconnect();
        }}
      >
        {t('disconnect')}
      </button>
    </p>
  );
}

/** Injected connectors whose wallet is really there: the generic one is always listed, even with no wallet. */
export function usePresentBrowserWallets(): Connector[] {
  const connectors = useConnectors();
  const [present, setPresent] = useState<Connector[]>([]);
  useEffect(() => {
    let live = true;
    const injected = connectors.filter((c) => c.type === 'injected');
    void Promise.all(
      injected.map(async (c) => ((await c.getProvider().catch(() => undefined)) ? c : null)),
    ).then((found) => {
      if (live) setPresent(found.filter((c): c is Connector => c !== null));
    });
    return () => {
      live = false;
    };
  }, [connectors]);
  return present;
}
