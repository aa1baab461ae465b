/** Service URL, spending caps, wallet, WalletConnect, library secret, theme. Secrets go in; only "set / accepted" comes out. */
import { useState, type FormEvent } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { ErrorMessage, Loading } from '../components/States';
import { WalletPanel } from '../wallet/WalletPanel';
import { walletConnectProjectIdSchema, type SettingsView } from '../../shared/rpc';

const CATALOG = ['shelf.list', 'menu.get', 'quote.get', 'app.info', 'settings.get'] as const;

function ServiceForm(props: { settings: SettingsView }) {
  const [url, setUrl] = useState(props.settings.serviceUrl);
  const update = useRpcMutation('settings.update', [...CATALOG]);
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ serviceUrl: url });
      }}
    >
      <h2>Service</h2>
      <label>
        Service URL{' '}
        <input
          type="url"
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-label="Service URL"
        />
      </label>
      <button type="submit" disabled={update.isPending || url === props.settings.serviceUrl}>
        Use this service
      </button>
      {update.isError ? <p className="error-text">{errorMessage(update.error)}</p> : null}
      {update.isSuccess ? <p className="ok-text">Saved.</p> : null}
    </form>
  );
}

function CapsForm(props: { settings: SettingsView }) {
  const [perPurchase, setPerPurchase] = useState(String(props.settings.perPurchaseCapUsd));
  const [daily, setDaily] = useState(String(props.settings.dailyCapUsd));
  const update = useRpcMutation('settings.update', ['settings.get', 'purchases.list', 'quote.get']);
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ perPurchaseCapUsd: Number(perPurchase), dailyCapUsd: Number(daily) });
      }}
    >
      <h2>Spending caps</h2>
      <p className="muted small">Above a cap, a purchase needs an extra confirmation.</p>
      <label>
        Per purchase (USD){' '}
        <input
          type="number"
          min="0"
          step="0.01"
          value={perPurchase}
          onChange={(e) => setPerPurchase(e.target.value)}
        />
      </label>
      <label>
        Per day (USD){' '}
        <input type="number" min="0" step="0.01" value={daily} onChange={(e) => setDaily(e.target.value)} />
      </label>
      <button type="submit" disabled={update.isPending}>
        Save caps
      </button>
      {update.isError ? <p className="error-text">{errorMessage(update.error)}</p> : null}
      {update.isSuccess ? <p className="ok-text">Saved.</p> : null}
    </form>
  );
}

function WalletConnectForm(props: { settings: SettingsView }) {
  const [projectId, setProjectId] = useState(props.settings.walletConnectProjectId ?? '');
  const update = useRpcMutation('settings.update', ['settings.get']);
  const checked = walletConnectProjectIdSchema.safeParse(projectId);
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        if (checked.success) update.mutate({ walletConnectProjectId: checked.data });
      }}
    >
      <h2>WalletConnect</h2>
      <p className="muted small">
        Pair a phone or hardware wallet through the WalletConnect relay. It needs a project id from
        WalletConnect Cloud; without one, Intel Desk never contacts the relay.
      </p>
      <label>
        Project id{' '}
        <input
          aria-label="WalletConnect project id"
          spellCheck={false}
          value={projectId}
          onChange={(e) => setProjectId(e.target.value)}
        />
      </label>
      {projectId && !checked.success ? (
        <p className="error-text">{checked.error.issues[0]?.message}</p>
      ) : null}
      <div className="inline-form">
        <button type="submit" disabled={!checked.success || update.isPending}>
          Save project id
        </button>
        <button
          type="button"
          disabled={!props.settings.walletConnectProjectId || update.isPending}
          onClick={() => update.mutate({ walletConnectProjectId: null })}
        >
          Remove
        </button>
      </div>
      {update.isError ? <p className="error-text">{errorMessage(update.error)}</p> : null}
    </form>
  );
}

function ImportWallet() {
  const [kind, setKind] = useState<'key' | 'keystore'>('key');
  const [privateKey, setPrivateKey] = useState('');
  const [keystoreJson, setKeystoreJson] = useState('');
  const [keystorePassword, setKeystorePassword] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const importWallet = useRpcMutation('wallet.import', ['wallet.status']);
  const lock = useRpcMutation('wallet.lock', ['wallet.status']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    importWallet.mutate(
      kind === 'key' ? { privateKey, passphrase } : { keystoreJson, keystorePassword, passphrase },
      {
        onSuccess: () => {
          setPrivateKey('');
          setKeystoreJson('');
          setKeystorePassword('');
          setPassphrase('');
        },
      },
    );
  };
  return (
    <form className="settings-block" onSubmit={submit} autoComplete="off">
      <h3>Import a wallet</h3>
      <p className="muted small">The key is encrypted in Intel Desk's keystore and never shown again.</p>
      <label>
        <input type="radio" name="import-kind" checked={kind === 'key'} onChange={() => setKind('key')} />{' '}
        Private key
      </label>
      <label>
        <input
          type="radio"
          name="import-kind"
          checked={kind === 'keystore'}
          onChange={() => setKind('keystore')}
        />{' '}
        Keystore JSON file
      </label>
      {kind === 'key' ? (
        <label>
          Private key{' '}
          <input
            type="password"
            aria-label="Private key"
            value={privateKey}
            onChange={(e) => setPrivateKey(e.target.value)}
          />
        </label>
      ) : (
        <>
          <label>
            Keystore file{' '}
            <input
              type="file"
              accept=".json,application/json"
              aria-label="Keystore file"
              onChange={async (e) => setKeystoreJson((await e.target.files?.[0]?.text()) ?? '')}
            />
          </label>
          <label>
            Keystore password{' '}
            <input
              type="password"
              value={keystorePassword}
              onChange={(e) => setKeystorePassword(e.target.value)}
            />
          </label>
        </>
      )}
      <label>
        New passphrase for Intel Desk{' '}
        <input
          type="password"
          aria-label="New passphrase"
          autoComplete="new-password"
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={importWallet.isPending || !passphrase}>
          Import wallet
        </button>
        <button type="button" onClick={() => lock.mutate({})}>
          Lock wallet
        </button>
      </div>
      {importWallet.isError ? <p className="error-text">{errorMessage(importWallet.error)}</p> : null}
      {importWallet.isSuccess ? <p className="ok-text">Wallet imported and unlocked.</p> : null}
    </form>
  );
}

function LibrarySecret(props: { settings: SettingsView }) {
  const [secret, setSecret] = useState('');
  // A quote says whether it is paid or read with the secret: one priced before the change is out of date.
  const set = useRpcMutation('settings.setLibrarySecret', ['settings.get', 'quote.get']);
  const clear = useRpcMutation('settings.clearLibrarySecret', ['settings.get', 'quote.get']);
  const accepted = props.settings.librarySecretAccepted;
  return (
    <form
      className="settings-block"
      autoComplete="off"
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate({ secret }, { onSettled: () => setSecret('') });
      }}
    >
      <h2>Library secret</h2>
      <p data-testid="secret-state">
        {props.settings.librarySecretSet ? 'Set' : 'Not set'}
        {props.settings.librarySecretSet && accepted === true ? ' · accepted by the service' : ''}
        {props.settings.librarySecretSet && accepted === false ? ' · refused by the service' : ''}
      </p>
      <label>
        Secret{' '}
        <input
          type="password"
          aria-label="Library secret"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={!secret || set.isPending}>
          Save secret
        </button>
        <button type="button" disabled={!props.settings.librarySecretSet} onClick={() => clear.mutate({})}>
          Forget secret
        </button>
      </div>
      {set.isError ? <p className="error-text">{errorMessage(set.error)}</p> : null}
    </form>
  );
}

function ThemePicker(props: { settings: SettingsView }) {
  const update = useRpcMutation('settings.update', ['settings.get']);
  return (
    <fieldset className="settings-block">
      <legend>Theme</legend>
      {(['system', 'light', 'dark'] as const).map((theme) => (
        <label key={theme}>
          <input
            type="radio"
            name="theme"
            checked={props.settings.theme === theme}
            onChange={() => update.mutate({ theme })}
          />{' '}
          {theme}
        </label>
      ))}
    </fieldset>
  );
}

export function SettingsScreen() {
  const settings = useRpcQuery('settings.get', {});
  return (
    <section aria-labelledby="settings-title">
      <div className="screen-head">
        <h1 id="settings-title">Settings</h1>
      </div>
      {settings.isPending ? <Loading /> : null}
      {settings.isError ? (
        <ErrorMessage error={settings.error} onRetry={() => void settings.refetch()} />
      ) : null}
      {settings.data ? (
        <div className="settings-grid">
          <ServiceForm key={settings.data.serviceUrl} settings={settings.data} />
          <CapsForm settings={settings.data} />
          <div className="settings-block">
            <h2>Wallet</h2>
            <WalletPanel />
            <ImportWallet />
          </div>
          <WalletConnectForm key={settings.data.walletConnectProjectId ?? ''} settings={settings.data} />
          <LibrarySecret settings={settings.data} />
          <ThemePicker settings={settings.data} />
        </div>
      ) : null}
    </section>
  );
}
