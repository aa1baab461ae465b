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
import { walletText as t } from '../text/wallet';

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
        title={t('replaceTitle')}
        open={existing !== null && !keepCurrent && !importWallet.isPending}
        onClose={() => setKeepCurrent(true)}
      >
        <p>
          {t('alreadySetUp')}
          <code data-testid="wallet-current">{existing?.current}</code>
          {t('sentenceEnd')}
        </p>
        <p>
          {t('importing')}
          <code data-testid="wallet-incoming">{existing?.incoming}</code>
          {t('importingReplaces')}
        </p>
        <div className="inline-form">
          <button type="button" onClick={() => setKeepCurrent(true)}>
            {t('keepCurrent')}
          </button>
          <button type="button" onClick={() => submitImport(true)}>
            {t('replace')}
          </button>
        </div>
      </Dialog>
      <h3>{t('importTitle')}</h3>
      <p className="muted small">{t('keyEncrypted')}</p>
      <fieldset>
        <legend>{t('importFrom')}</legend>
        <label>
          <input type="radio" name="import-kind" checked={kind === 'key'} onChange={() => setKind('key')} />{' '}
          {t('hexKey')}
        </label>
        <label>
          <input
            type="radio"
            name="import-kind"
            checked={kind === 'keystore'}
            onChange={() => setKind('keystore')}
          />{' '}
          {t('keystoreJson')}
        </label>
      </fieldset>
      {kind === 'key' ? (
        <label>
          {t('privateKey')}{' '}
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
            {t('keystoreFile')}{' '}
            <input
              type="file"
              accept=".json,application/json"
              onChange={async (e) => setKeystoreJson((await e.target.files?.[0]?.text()) ?? '')}
              {...invalidProps(messageId, failedField === 'keystoreFile')}
            />
          </label>
          <label>
            {t('keystorePassword')}{' '}
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
        {t('newPassphrase')}{' '}
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
          {importWallet.isPending ? t('sealing') : t('importWallet')}
        </button>
        <button type="button" onClick={() => lock.mutate({})}>
          {t('lockWallet')}
        </button>
      </div>
      <FormMessage
        id={messageId}
        error={
          importWallet.isError
            ? existing !== null
              ? keepCurrent
                ? t('nothingImported', { address: existing.current })
                : null
              : // The hint is right under the field: the error says only what is wrong.
                errorMessage(importWallet.error).replace(` ${PASSPHRASE_HINT}`, '')
            : lock.isError
              ? errorMessage(lock.error)
              : null
        }
        success={importWallet.isSuccess ? t('imported') : null}
      />
    </form>
  );
}
