/**
 * Connect a phone or desktop wallet through WalletConnect, once a project id is set in Settings: the pairing
 * URI is shown as a QR code and as text to copy; the wallet's address then becomes the external signer.
 */
import { useEffect, useState } from 'react';
import { useConnect, useConnection, useConnectors, useDisconnect } from 'wagmi';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { shortAddress } from '../format';
import { QrCode } from '../components/QrCode';

export function WalletConnectPairing() {
  const settings = useRpcQuery('settings.get', {});
  const connector = useConnectors().find((c) => c.id === 'walletConnect');
  const connection = useConnection();
  const { connectAsync, isPending } = useConnect();
  const { disconnect } = useDisconnect();
  const useExternal = useRpcMutation('wallet.useExternal', ['wallet.status']);
  const [uri, setUri] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!connector) return;
    const onMessage = (message: { type: string; data?: unknown }) => {
      if (message.type === 'display_uri' && typeof message.data === 'string') setUri(message.data);
    };
    connector.emitter.on('message', onMessage);
    return () => connector.emitter.off('message', onMessage);
  }, [connector]);

  if (!connector || !settings.data?.walletConnectProjectId) return null;
  if (connection.isConnected && connection.connector?.id === 'walletConnect') {
    return (
      <p className="muted">
        WalletConnect wallet {shortAddress(connection.address)} connected.{' '}
        <button type="button" className="link" onClick={() => disconnect()}>
          Disconnect
        </button>
      </p>
    );
  }
  const connect = async () => {
    setError(null);
    setUri(null);
    try {
      const result = await connectAsync({ connector });
      const address = result.accounts[0];
      if (address) await useExternal.mutateAsync({ address });
    } catch (e) {
      setError(e instanceof Error ? e.message : errorMessage(e));
    } finally {
      setUri(null);
    }
  };
  return (
    <div className="walletconnect" data-testid="walletconnect">
      <button type="button" disabled={isPending} onClick={() => void connect()}>
        {isPending
          ? uri
            ? 'Waiting for the wallet…'
            : 'Contacting the WalletConnect relay…'
          : 'Connect with WalletConnect'}
      </button>
      {uri ? (
        <figure>
          <QrCode value={uri} label="WalletConnect pairing code" />
          <figcaption className="small">
            Scan with your wallet, or copy the link:{' '}
            <button type="button" className="link" onClick={() => void navigator.clipboard.writeText(uri)}>
              Copy pairing link
            </button>
          </figcaption>
        </figure>
      ) : null}
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
