/** Service URL, spending caps and budgets, wallet, WalletConnect, chain RPC, network, library secret, theme, the assistant's setup. Secrets go in; only "set / accepted" comes out. */
import { useId, useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { ErrorMessage, Loading } from '../components/States';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { asksForPassphrase, ConsentPassphrase } from '../components/ConsentPassphrase';
import { BudgetsForm } from './BudgetsForm';
import { ChainRpcForm } from './ChainRpcForm';
import { NetworkForm } from './NetworkForm';
import { OptionalSettingForm } from './OptionalSettingForm';
import { LibraryCard } from './LibraryCard';
import { AssistantSetupCard } from './AssistantSetup';
import { TeamCard } from './TeamCard';
import { WalletPanel } from '../wallet/WalletPanel';
import { httpUrlSchema, walletConnectProjectIdSchema, type SettingsView } from '../../shared/rpc';
import { ImportWallet } from '../wallet/ImportWallet';
import { AutoLockForm } from './AutoLockForm';
import { moneyField, readLimit } from '../format';
import { capsText } from '../text/caps';
import { settingsText as t } from '../text/settings';

const THEME_NAMES = { system: t('themeSystem'), light: t('themeLight'), dark: t('themeDark') } as const;

function ServiceForm(props: { settings: SettingsView }) {
  const [url, setUrl] = useState(props.settings.serviceUrl);
  // A URL the contract would refuse is said here in the field's own words, and nothing is sent: core's
  // refusal would name the contract's field (serviceUrl) instead.
  const [typo, setTypo] = useState<string | null>(null);
  const update = useRpcMutation('settings.update');
  const messageId = useId();
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        if (!httpUrlSchema.safeParse(url).success) {
          update.reset();
          setTypo(t('serviceUrlWrong'));
          return;
        }
        setTypo(null);
        update.mutate({ serviceUrl: url }, { onSuccess: (saved) => setUrl(saved.serviceUrl) });
      }}
    >
      <h2>{t('serviceTitle')}</h2>
      <label>
        {t('serviceUrl')}{' '}
        <input
          type="url"
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-label={t('serviceUrl')}
          {...invalidProps(messageId, typo !== null || update.isError)}
        />
      </label>
      <button type="submit" disabled={update.isPending || url === props.settings.serviceUrl}>
        {t('useService')}
      </button>
      <FormMessage
        id={messageId}
        error={typo ?? (update.isError ? errorMessage(update.error) : null)}
        success={update.isSuccess ? t('saved') : null}
      />
    </form>
  );
}

function CapsForm(props: { settings: SettingsView }) {
  const [perPurchase, setPerPurchase] = useState(moneyField(props.settings.perPurchaseCapUnits));
  const [daily, setDaily] = useState(moneyField(props.settings.dailyCapUnits));
  // A typed amount that is no exact amount of USDC: said here, on its own field, and nothing is sent.
  const [typo, setTypo] = useState<{ field: 'perPurchase' | 'daily'; message: string } | null>(null);
  const update = useRpcMutation('settings.update');
  // Raising a cap while a keystore is stored needs its passphrase: asked for once core says so.
  const [passphrase, setPassphrase] = useState('');
  const asked = asksForPassphrase(update.error) || passphrase !== '';
  const messageId = useId();
  const failed = (field: 'perPurchase' | 'daily') => typo?.field === field || update.isError;
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        const perPurchaseCap = readLimit(perPurchase);
        const dailyCap = readLimit(daily);
        if (!perPurchaseCap.ok)
          return setTypo({
            field: 'perPurchase',
            message: capsText('perPurchaseWrong', { message: perPurchaseCap.message }),
          });
        if (!dailyCap.ok)
          return setTypo({ field: 'daily', message: capsText('perDayWrong', { message: dailyCap.message }) });
        setTypo(null);
        update.mutate(
          {
            perPurchaseCapUnits: perPurchaseCap.units.toString(),
            dailyCapUnits: dailyCap.units.toString(),
            ...(passphrase === '' ? {} : { passphrase }),
          },
          { onSettled: () => setPassphrase('') },
        );
      }}
    >
      <h2>{capsText('title')}</h2>
      <p className="muted small">{capsText('explain')}</p>
      <label>
        {capsText('perPurchase')}{' '}
        <input
          inputMode="decimal"
          autoComplete="off"
          value={perPurchase}
          onChange={(e) => setPerPurchase(e.target.value)}
          {...invalidProps(messageId, failed('perPurchase'))}
        />
      </label>
      <label>
        {capsText('perDay')}{' '}
        <input
          inputMode="decimal"
          autoComplete="off"
          value={daily}
          onChange={(e) => setDaily(e.target.value)}
          {...invalidProps(messageId, failed('daily'))}
        />
      </label>
      {asked ? (
        <ConsentPassphrase what={capsText('consent')} value={passphrase} onChange={setPassphrase} />
      ) : null}
      <button type="submit" disabled={update.isPending}>
        {capsText('submit')}
      </button>
      <FormMessage
        id={messageId}
        error={typo?.message ?? (update.isError ? errorMessage(update.error) : null)}
        success={typo === null && update.isSuccess ? capsText('saved') : null}
      />
    </form>
  );
}

function WalletConnectForm(props: { settings: SettingsView }) {
  return (
    <OptionalSettingForm
      setting="walletConnectProjectId"
      settings={props.settings}
      schema={walletConnectProjectIdSchema}
      title={t('walletConnectTitle')}
      label={t('projectId')}
      inputLabel={t('projectIdLabel')}
      inputType="text"
      saveLabel={t('saveProjectId')}
      clearLabel={t('remove')}
    >
      <p className="muted small">{t('walletConnectExplain')}</p>
    </OptionalSettingForm>
  );
}

function LibrarySecret(props: { settings: SettingsView }) {
  const [secret, setSecret] = useState('');
  // A quote says whether it is paid or read with the secret: one priced before the change is out of date.
  const set = useRpcMutation('settings.setLibrarySecret');
  const clear = useRpcMutation('settings.clearLibrarySecret');
  const demoSecret = useRpcMutation('settings.useDemoLibrarySecret');
  const { librarySecretSet: isSet, librarySecretOrigin: origin } = props.settings;
  const accepted = props.settings.librarySecretAccepted;
  const messageId = useId();
  return (
    <form
      className="settings-block"
      autoComplete="off"
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate({ secret }, { onSettled: () => setSecret('') });
      }}
    >
      <h2>{t('secretTitle')}</h2>
      <p data-testid="secret-state">
        {isSet ? t('secretSetFor', { origin: origin ?? '' }) : t('secretNotSet')}
        {isSet && accepted === true ? t('secretAccepted') : ''}
        {isSet && accepted === false ? t('secretRefused') : ''}
        {!isSet && origin ? t('secretStoredElsewhere', { origin }) : ''}
      </p>
      <p className="muted">{t('secretExplain')}</p>
      <label>
        {t('secret')}{' '}
        <input
          type="password"
          aria-label={t('secretLabel')}
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          {...invalidProps(messageId, set.isError)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={!secret || set.isPending}>
          {t('saveSecret')}
        </button>
        <button type="button" disabled={origin === null} onClick={() => clear.mutate({})}>
          {t('forgetSecret')}
        </button>
        {props.settings.demoLibrarySecretOffered ? (
          <button type="button" disabled={demoSecret.isPending} onClick={() => demoSecret.mutate({})}>
            {t('useDemoSecret')}
          </button>
        ) : null}
      </div>
      {props.settings.demoLibrarySecretOffered ? <p className="muted">{t('demoSecretPublic')}</p> : null}
      <FormMessage
        id={messageId}
        error={
          set.isError
            ? errorMessage(set.error)
            : clear.isError
              ? errorMessage(clear.error)
              : demoSecret.isError
                ? errorMessage(demoSecret.error)
                : null
        }
      />
    </form>
  );
}

function ThemePicker(props: { settings: SettingsView }) {
  const update = useRpcMutation('settings.update');
  return (
    <div className="settings-block" role="radiogroup" aria-labelledby="theme-title">
      <h2 id="theme-title">{t('themeTitle')}</h2>
      {(['system', 'light', 'dark'] as const).map((theme) => (
        <label key={theme} className="choice-label">
          <input
            type="radio"
            name="theme"
            checked={props.settings.theme === theme}
            onChange={() => update.mutate({ theme })}
          />{' '}
          {THEME_NAMES[theme]}
        </label>
      ))}
    </div>
  );
}

export function SettingsScreen() {
  const settings = useRpcQuery('settings.get', {});
  return (
    <section aria-labelledby="settings-title">
      <div className="screen-head">
        <h1 id="settings-title">{t('title')}</h1>
      </div>
      {settings.isPending ? <Loading /> : null}
      {settings.isError ? (
        <ErrorMessage error={settings.error} onRetry={() => void settings.refetch()} />
      ) : null}
      {settings.data ? (
        <div className="settings-grid">
          {/* Not keyed by the saved values: a remount would drop the "Saved." the person is told. */}
          <ServiceForm settings={settings.data} />
          <CapsForm settings={settings.data} />
          <div className="settings-block">
            <h2>{t('walletTitle')}</h2>
            <WalletPanel />
            <ImportWallet />
            <AutoLockForm settings={settings.data} />
          </div>
          <WalletConnectForm settings={settings.data} />
          <LibrarySecret settings={settings.data} />
          <ThemePicker settings={settings.data} />
          <ChainRpcForm settings={settings.data} />
          <NetworkForm settings={settings.data} />
          <LibraryCard />
          <AssistantSetupCard />
          <TeamCard />
          {/* Last, so the cards above keep their rows; its text names the caps it sits beside. */}
          <BudgetsForm />
        </div>
      ) : null}
    </section>
  );
}
