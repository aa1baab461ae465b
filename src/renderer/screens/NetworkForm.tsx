/**
 * Network: the proxy core connects through and the certificate authorities it trusts (decision 0046). A saved
 * proxy's user name and password never come back here: the address is shown masked, and saving the other
 * fields without typing it again keeps the one saved.
 */
import { useId, useState } from 'react';
import { useRpcMutation } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { FormMessage, invalidProps } from '../components/FormMessage';
import type { SettingsView } from '../../shared/rpc';
import { caFileSchema, noProxySchema, proxyUrlSchema, type NetworkView } from '../../shared/proxy';
import { networkText as t } from '../text/network';

type Mode = NetworkView['proxy']['mode'];

const MODE_WORDS: Record<Mode, string> = {
  environment: t('modeEnvironment'),
  direct: t('modeDirect'),
  manual: t('modeManual'),
};

function environmentWords(environment: NetworkView['environment']): string {
  if (environment.problem) return environment.problem;
  if (!environment.proxy) return t('environmentNone');
  const exceptions = environment.noProxy.length
    ? t('environmentExcept', { hosts: environment.noProxy.join(', ') })
    : '';
  return t('environmentNames', {
    proxy: environment.proxy,
    variable: environment.variable ?? '',
    exceptions,
  });
}

function ProxyForm(props: { network: NetworkView }) {
  const saved = props.network.proxy;
  const [mode, setMode] = useState<Mode>(saved.mode);
  const [url, setUrl] = useState('');
  const [noProxy, setNoProxy] = useState(saved.mode === 'manual' ? saved.noProxy.join(', ') : '');
  const update = useRpcMutation('settings.update');
  const messageId = useId();
  const checkedUrl = proxyUrlSchema.safeParse(url);
  const checkedNoProxy = noProxySchema.safeParse(noProxy);
  // A new address is needed unless one is saved, which an empty field keeps.
  const needsUrl = mode === 'manual' && (url.trim() !== '' || saved.mode !== 'manual');
  const typo =
    mode !== 'manual'
      ? null
      : needsUrl && !checkedUrl.success
        ? (checkedUrl.error.issues[0]?.message ?? null)
        : !checkedNoProxy.success
          ? (checkedNoProxy.error.issues[0]?.message ?? null)
          : null;
  return (
    <form
      className="settings-block"
      aria-labelledby="proxy-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (typo !== null || !checkedNoProxy.success) return;
        const entries = checkedNoProxy.data;
        const proxy =
          mode === 'manual' ? { mode, noProxy: entries, ...(url.trim() !== '' ? { url } : {}) } : { mode };
        update.mutate({ proxy }, { onSuccess: () => setUrl('') });
      }}
    >
      <h2 id="proxy-title">{t('proxyTitle')}</h2>
      <p className="muted small">{t('proxyExplain')}</p>
      {(['environment', 'direct', 'manual'] as const).map((choice) => (
        <label key={choice} className="choice-label">
          <input type="radio" name="proxy-mode" checked={mode === choice} onChange={() => setMode(choice)} />{' '}
          {MODE_WORDS[choice]}
        </label>
      ))}
      {mode === 'environment' ? (
        <p className="small" data-testid="proxy-environment">
          {environmentWords(props.network.environment)}
        </p>
      ) : null}
      {mode === 'manual' ? (
        <>
          <label>
            {t('proxyAddress')}{' '}
            <input
              type="text"
              aria-label={t('proxyAddress')}
              spellCheck={false}
              autoComplete="off"
              placeholder={
                saved.mode === 'manual' ? t('proxySaved', { url: saved.url }) : t('proxyPlaceholder')
              }
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              {...invalidProps(messageId, typo !== null)}
            />
          </label>
          <label>
            {t('noProxyFor')}{' '}
            <input
              type="text"
              aria-label={t('noProxyFor')}
              spellCheck={false}
              autoComplete="off"
              placeholder={t('noProxyPlaceholder')}
              value={noProxy}
              onChange={(e) => setNoProxy(e.target.value)}
            />
          </label>
        </>
      ) : null}
      <button type="submit" disabled={typo !== null || update.isPending}>
        {t('saveProxy')}
      </button>
      <FormMessage
        id={messageId}
        error={typo ?? (update.isError ? errorMessage(update.error) : null)}
        success={update.isSuccess ? t('saved') : null}
      />
    </form>
  );
}

function CertificatesForm(props: { network: NetworkView }) {
  const [file, setFile] = useState(props.network.caFile ?? '');
  const update = useRpcMutation('settings.update');
  const messageId = useId();
  const checked = caFileSchema.safeParse(file);
  const typo = file.trim() !== '' && !checked.success ? (checked.error.issues[0]?.message ?? null) : null;
  return (
    <form
      className="settings-block"
      aria-labelledby="certificates-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (checked.success) update.mutate({ caFile: checked.data });
      }}
    >
      <h2 id="certificates-title">{t('certificatesTitle')}</h2>
      <p className="muted small">{t('certificatesExplain')}</p>
      <label>
        {t('caFile')}{' '}
        <input
          type="text"
          aria-label={t('caFile')}
          spellCheck={false}
          autoComplete="off"
          placeholder={t('caFilePlaceholder')}
          value={file}
          onChange={(e) => setFile(e.target.value)}
          {...invalidProps(messageId, typo !== null || update.isError)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={!checked.success || update.isPending}>
          {t('useFile')}
        </button>
        <button
          type="button"
          disabled={!props.network.caFile || update.isPending}
          onClick={() => update.mutate({ caFile: null }, { onSuccess: () => setFile('') })}
        >
          {t('useNoFile')}
        </button>
      </div>
      <label className="choice-label">
        <input
          type="checkbox"
          checked={props.network.systemCertificates && props.network.systemCertificatesAvailable}
          disabled={!props.network.systemCertificatesAvailable || update.isPending}
          onChange={(e) => update.mutate({ systemCertificates: e.target.checked })}
        />{' '}
        {t('trustSystem')}
      </label>
      {props.network.systemCertificatesAvailable ? null : <p className="muted small">{t('noSystemStore')}</p>}
      <FormMessage
        id={messageId}
        error={typo ?? (update.isError ? errorMessage(update.error) : null)}
        success={update.isSuccess ? t('saved') : null}
      />
    </form>
  );
}

export function NetworkForm(props: { settings: SettingsView }) {
  return (
    <>
      <ProxyForm network={props.settings.network} />
      <CertificatesForm network={props.settings.network} />
    </>
  );
}
