/**
 * Settings → Wallet: import a key or a keystore file under a new passphrase, rated as it is typed; lock the
 * wallet. Replacing a wallet already set up asks first.
 */
import { useId, useState, type FormEvent } from 'react';
import { useRpcMutation } from '../rpc/context';
import { errorCode, errorMessage, refusalDetails } from '../rpc/client';
import { Dialog } from '../components/Dialog';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { PASSPHRASE_HINT } from '../../shared/passphrase';
import { PassphraseMeter } from './PassphraseMeter';

/** Which field an import error is about, by its stable code; others concern the whole form. */
const IMPORT_ERROR_FIELD: Record<string, 'privateKey' | 'keystoreFile' | 'keystorePassword' | 'passphrase'> =
  {
    invalid_private_key: 'privateKey',
    invalid_keystore: 'keystoreFile',
    wrong_passphrase: 'keystorePassword',
    weak_passphrase: 'passphrase',
  };

export function ImportWallet() {
  const [kind, setKind] = useState<'key' | 'keystore'>('key');
  const [privateKey, setPrivateKey] = useState('');
  const [keystoreJson, setKeystoreJson] = useState('');
  const [keystorePassword, setKeystorePassword] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const importWallet = useRpcMutation('wallet.import');
  const lock = useRpcMutation('wallet.lock');
  const messageId = useId();
  const hintId = useId();
  const strengthId = useId();
  const failedField = importWallet.isError
    ? IMPORT_ERROR_FIELD[errorCode(importWallet.error) ?? '']
    : undefined;
  // Another wallet is set up: core refused and named both addresses; only the person's choice replaces it.
  const existing = refusalDetails(importWallet.error, 'wallet_exists');
  const [keepCurrent, setKeepCurrent] = useState(false);
  const submitImport = (replace: boolean) => {
    setKeepCurrent(false);
    importWallet.mutate(
      kind === 'key'
        ? { privateKey, passphrase, replace }
        : { keystoreJson, keystorePassword, passphrase, replace },
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    submitImport(false);
  };
  return (
    <form className="settings-block" onSubmit={submit} autoComplete="off">
      <Dialog
        title="Replace the wallet?"
        open={existing !== null && !keepCurrent && !importWallet.isPending}
        onClose={() => setKeepCurrent(true)}
      >
        <p>
          A wallet is already set up: <code data-testid="wallet-current">{existing?.current}</code>.
        </p>
        <p>
          Importing <code data-testid="wallet-incoming">{existing?.incoming}</code> replaces it. The current
          keystore is kept in the backups folder of the data folder, so it can be restored.
        </p>
        <div className="inline-form">
          <button type="button" onClick={() => setKeepCurrent(true)}>
            Keep the current wallet
          </button>
          <button type="button" onClick={() => submitImport(true)}>
            Replace the wallet
          </button>
        </div>
      </Dialog>
      <h3>Import a wallet</h3>
      <p className="muted small">The key is encrypted in Intel Desk's keystore and never shown again.</p>
      <fieldset>
        <legend>Import from</legend>
        <label>
          <input type="radio" name="import-kind" checked={kind === 'key'} onChange={() => setKind('key')} />{' '}
          Hexadecimal key
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
      </fieldset>
      {kind === 'key' ? (
        <label>
          Private key{' '}
          <input
            type="password"
            value={privateKey}
            onChange={(e) => setPrivateKey(e.target.value)}
            {...invalidProps(messageId, failedField === 'privateKey')}
          />
        </label>
      ) : (
        <>
          <label>
            Keystore file{' '}
            <input
              type="file"
              accept=".json,application/json"
              onChange={async (e) => setKeystoreJson((await e.target.files?.[0]?.text()) ?? '')}
              {...invalidProps(messageId, failedField === 'keystoreFile')}
            />
          </label>
          <label>
            Keystore password{' '}
            <input
              type="password"
              value={keystorePassword}
              onChange={(e) => setKeystorePassword(e.target.value)}
              {...invalidProps(messageId, failedField === 'keystorePassword')}
            />
          </label>
        </>
      )}
      <label>
        New passphrase for Intel Desk{' '}
        <input
          type="password"
          autoComplete="new-password"
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
          {...invalidProps(messageId, failedField === 'passphrase')}
          aria-describedby={[hintId, strengthId, failedField === 'passphrase' ? messageId : '']
            .join(' ')
            .trim()}
        />
      </label>
      <p className="muted small" id={hintId} data-testid="passphrase-hint">
        {PASSPHRASE_HINT}
      </p>
      <PassphraseMeter passphrase={passphrase} id={strengthId} />
      <div className="inline-form">
        <button type="submit" disabled={importWallet.isPending || !passphrase}>
          {importWallet.isPending ? 'Sealing the key…' : 'Import wallet'}
        </button>
        <button type="button" onClick={() => lock.mutate({})}>
          Lock wallet
        </button>
      </div>
      <FormMessage
        id={messageId}
        error={
          importWallet.isError
            ? existing !== null
              ? keepCurrent
                ? `Nothing was imported; ${existing.current} is still the wallet.`
                : null
              : // The hint is right under the field: the error says only what is wrong.
                errorMessage(importWallet.error).replace(` ${PASSPHRASE_HINT}`, '')
            : lock.isError
              ? errorMessage(lock.error)
              : null
        }
        success={importWallet.isSuccess ? 'Wallet imported and unlocked.' : null}
      />
    </form>
  );
}
