/**
 * Which wallet pays, said plainly when it is not the wallet in the window the person chose: core forgets a
 * browser or WalletConnect wallet when it restarts, and the keystore (in the demo, the demo wallet) pays
 * again. The window never lets that happen silently; it names the payer, the wallet that is not connected,
 * and offers to reconnect it or to keep the payer.
 */
import { useEffect, useState } from 'react';
import { useConnection, useDisconnect } from 'wagmi';
import type { WalletView } from '../../shared/rpc';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { Address, sameAddress } from '../components/Address';
import { useExternalWallet, usePresentBrowserWallets } from './external-wallet';
import {
  forgetRememberedExternal,
  kindOf,
  onRememberedChange,
  recallExternal,
  rememberExternal,
  type LastExternal,
} from './last-external';
import { walletText as t } from '../text/wallet';

function useRemembered(): LastExternal | null {
  const [remembered, setRemembered] = useState(recallExternal);
  useEffect(() => onRememberedChange(() => setRemembered(recallExternal())), []);
  return remembered;
}

export function PayerNotice(props: { view: WalletView }) {
  const { view } = props;
  const info = useRpcQuery('app.info', {});
  const connection = useConnection();
  const { disconnect } = useDisconnect();
  const useExternal = useRpcMutation('wallet.useExternal');
  const wallet = useExternalWallet();
  const browserWallets = usePresentBrowserWallets();
  const remembered = useRemembered();
  // The wallet the window is still connected to (wagmi reconnects it after a reload), if any: Reconnect
  // then only tells core its address again.
  const connectedHere: LastExternal | null =
    connection.isConnected &&
    connection.address &&
    connection.connector &&
    connection.connector.id !== 'intelDesk'
      ? { address: connection.address, kind: kindOf(connection.connector) }
      : null;
  // Only a wallet core was told to pay with: one being connected right now is not yet "missing".
  const missing = remembered;
  if (!missing || view.kind === 'external') return null;

  const walletName = missing.kind === 'walletconnect' ? t('walletConnectWallet') : t('browserWallet');
  const payerName = info.data?.demo ? t('demoWallet') : t('keystorePayer');
  const payerPays = info.data?.demo ? t('demoWalletPays') : t('keystorePays');
  const reconnect = () => {
    if (connectedHere && sameAddress(connectedHere.address, missing.address)) {
      useExternal.mutate({ address: connectedHere.address }, { onSuccess: () => rememberExternal(missing) });
      return;
    }
    const injected = browserWallets[0];
    if (missing.kind === 'browser' && injected) void wallet.connect(injected);
  };
  const canReconnect =
    (connectedHere !== null && sameAddress(connectedHere.address, missing.address)) ||
    (missing.kind === 'browser' && browserWallets.length > 0);
  const keepPayer = () => {
    forgetRememberedExternal();
    if (connectedHere) disconnect();
  };

  return (
    <div className="notice payer-notice" role="status" data-testid="payer-notice">
      <p>
        {view.address ? (
          <>
            <strong>
              {payerPays}
              {view.unlocked ? '' : t('onceUnlocked')}
            </strong>
            {t('colon')}
            <Address address={view.address} label={t('payingAddress')} />
            {t('sentenceEnd')}{' '}
          </>
        ) : (
          <strong>{t('noPayer')}</strong>
        )}
        {t('chosenStart', { wallet: walletName })}
        <Address address={missing.address} label={t('walletAddress', { wallet: walletName })} />
        {t('chosenEnd')}
      </p>
      <div className="actions">
        {canReconnect ? (
          <button type="button" className="primary" onClick={reconnect} disabled={wallet.isPending}>
            {t('reconnect', { wallet: walletName })}
          </button>
        ) : missing.kind === 'walletconnect' ? (
          <span className="muted small">{t('pairAgain')}</span>
        ) : null}
        {view.address ? (
          <button type="button" onClick={keepPayer}>
            {t('payWith', { payer: payerName })}
          </button>
        ) : null}
      </div>
      {wallet.error || useExternal.isError ? (
        <p className="error-text">{wallet.error ?? errorMessage(useExternal.error)}</p>
      ) : null}
    </div>
  );
}
