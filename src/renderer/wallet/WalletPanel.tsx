/** The wallet as the person sees it: which one, its address and balance, locked or not. */
import { useId, useState } from 'react';
import { useConnection } from 'wagmi';
import { useRpc, useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { useNavigate } from '../hooks/route';
import { networkName, tokenAmount } from '../format';
import { TOKEN_DECIMALS } from '../../shared/money';
import { Address } from '../components/Address';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { WalletConnectPairing } from './WalletConnectPairing';
import { ConnectedWallet, useExternalWallet, usePresentBrowserWallets } from './external-wallet';
import { PayerNotice } from './PayerNotice';
import { walletText as t } from '../text/wallet';

export function UnlockForm() {
  const [passphrase, setPassphrase] = useState('');
  const unlock = useRpcMutation('wallet.unlock');
  const messageId = useId();
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        unlock.mutate({ passphrase }, { onSuccess: () => setPassphrase('') });
      }}
    >
      <input
        type="password"
        aria-label={t('passphraseLabel')}
        placeholder={t('passphrasePlaceholder')}
        autoComplete="current-password"
        value={passphrase}
        onChange={(e) => setPassphrase(e.target.value)}
        {...invalidProps(messageId, unlock.isError)}
      />
      <button type="submit" disabled={!passphrase || unlock.isPending}>
        {unlock.isPending ? t('unlocking') : t('unlock')}
      </button>
      <FormMessage id={messageId} error={unlock.isError ? errorMessage(unlock.error) : null} />
    </form>
  );
}

function BrowserWallets(props: { paying: boolean }) {
  const connectors = usePresentBrowserWallets();
  const wallet = useExternalWallet();
  if (connectors.length === 0) return null;
  if (wallet.connectedWith((c) => c.type === 'injected'))
    return <ConnectedWallet label={t('browserWalletTitle')} address={wallet.address} paying={props.paying} />;
  return (
    <div className="inline-form">
      {connectors.map((connector) => (
        <button
          key={connector.uid}
          type="button"
          disabled={wallet.isPending}
          onClick={() => void wallet.connect(connector)}
        >
          {t('useWallet', { name: connector.name === 'Injected' ? t('browserWallet') : connector.name })}
        </button>
      ))}
      {wallet.error ? <span className="error-text">{wallet.error}</span> : null}
    </div>
  );
}

export function WalletPanel(props: { compact?: boolean }) {
  const wallet = useRpcQuery('wallet.status', {}, { refetchInterval: 30_000 });
  const { mode } = useRpc();
  const navigate = useNavigate();
  const view = wallet.data;
  const connection = useConnection();
  const externalKind =
    connection.connector?.type === 'walletConnect' ? t('walletConnectWalletTitle') : t('browserWalletTitle');
  return (
    <div className="wallet-panel" data-testid="wallet-panel">
      {/* In Settings the card around it already says "Wallet". */}
      {props.compact ? <h3>{t('title')}</h3> : null}
      {view ? <PayerNotice view={view} /> : null}
      {wallet.isPending ? <p className="muted">{t('checking')}</p> : null}
      {wallet.isError ? <p className="error-text">{errorMessage(wallet.error)}</p> : null}
      {view && !view.address ? (
        <p>
          {t('noWallet')}{' '}
          {props.compact ? (
            <button type="button" className="link" onClick={() => navigate({ screen: 'settings' })}>
              {t('importInSettings')}
            </button>
          ) : null}
        </p>
      ) : null}
      {view?.address ? (
        <dl className="kv">
          <div>
            <dt>{t('address')}</dt>
            <dd>
              <Address address={view.address} label={t('addressLabel')} testId="wallet-address" />
            </dd>
          </div>
          <div>
            <dt>{t('kind')}</dt>
            <dd>{view.kind === 'external' ? externalKind : t('keystore')}</dd>
          </div>
          {/* A connected wallet locks and unlocks itself; only the keystore's state is Intel Desk's to show. */}
          {view.kind === 'external' ? null : (
            <div>
              <dt>{t('state')}</dt>
              <dd data-testid="wallet-state">{view.unlocked ? t('unlocked') : t('locked')}</dd>
            </div>
          )}
          <div>
            <dt>{t('balance')}</dt>
            <dd>
              {view.balanceUnits !== null
                ? t('balanceUsdc', { amount: tokenAmount(view.balanceUnits, TOKEN_DECIMALS, 2) })
                : t('balanceUnknown')}
              {view.network ? t('onNetwork', { network: networkName(view.network) }) : ''}
            </dd>
          </div>
        </dl>
      ) : null}
      {view?.address && !view.unlocked ? <UnlockForm /> : null}
      <WalletConnectPairing />
      {mode === 'browser' ? <BrowserWallets paying={view?.kind === 'external'} /> : null}
    </div>
  );
}
