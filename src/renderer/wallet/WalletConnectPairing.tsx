/**
 * Connect a phone or desktop wallet through WalletConnect, once a project id is set in Settings: the pairing
 * URI is shown as a QR code and as a link to copy (or select, for a desktop wallet on the same computer); the
 * wallet's address then becomes the external signer.
 */
import { useEffect, useState } from 'react';
import { useConnectors } from 'wagmi';
import { useRpcQuery } from '../rpc/context';
import { ConnectedWallet, useExternalWallet } from './external-wallet';
import { QrCode } from '../components/QrCode';
import { ErrorLine } from '../components/States';
import { walletText as t } from '../text/wallet';

export function WalletConnectPairing() {
  const settings = useRpcQuery('settings.get', {});
  const connector = useConnectors().find((c) => c.id === 'walletConnect');
  const wallet = useExternalWallet();
  const [uri, setUri] = useState<string | null>(null);

  useEffect(() => {
    if (!connector) return;
    const onMessage = (message: { type: string; data?: unknown }) => {
      if (message.type === 'display_uri' && typeof message.data === 'string') setUri(message.data);
    };
    connector.emitter.on('message', onMessage);
    return () => connector.emitter.off('message', onMessage);
  }, [connector]);

  if (!connector || !settings.data?.walletConnectProjectId) return null;
  if (wallet.connectedWith((c) => c.id === 'walletConnect'))
    return <ConnectedWallet label={t('walletConnectWalletTitle')} address={wallet.address} />;
  const connect = async () => {
    setUri(null);
    await wallet.connect(connector);
    setUri(null);
  };
  return (
    <div className="walletconnect" data-testid="walletconnect">
      <button type="button" disabled={wallet.isPending} onClick={() => void connect()}>
        {wallet.isPending ? (uri ? t('waiting') : t('contacting')) : t('connectWalletConnect')}
      </button>
      {uri ? (
        <figure>
          <QrCode value={uri} label={t('pairingCode')} />
          <figcaption className="small">
            {t('scan')}{' '}
            <button type="button" className="link" onClick={() => void navigator.clipboard.writeText(uri)}>
              {t('copyPairing')}
            </button>
            <input
              className="pairing-link"
              aria-label={t('pairingLink')}
              readOnly
              value={uri}
              onFocus={(event) => event.currentTarget.select()}
            />
          </figcaption>
        </figure>
      ) : null}
      <ErrorLine error={wallet.error} />
    </div>
  );
}
