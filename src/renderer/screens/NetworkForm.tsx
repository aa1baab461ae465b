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

type Mode = NetworkView['proxy']['mode'];

const MODE_WORDS: Record<Mode, string> = {
  environment: 'From the environment (HTTPS_PROXY, NO_PROXY)',
  direct: 'No proxy',
  manual: 'This proxy',
};

function environmentWords(environment: NetworkView['environment']): string {
  if (environment.problem) return environment.problem;
  if (!environment.proxy) return 'The environment names no proxy: connections go directly.';
  const exceptions = environment.noProxy.length ? `, except ${environment.noProxy.join(', ')}` : '';
  return `The environment names ${environment.proxy} (${environment.variable ?? ''})${exceptions}.`;
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
      <h2 id="proxy-title">Proxy</h2>
      <p className="muted small">
        Connections to the service and the chain RPC go through this proxy (https only, tunnelled). This
        computer is always reached directly.
      </p>
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
            Proxy address{' '}
            <input
              type="text"
              aria-label="Proxy address"
              spellCheck={false}
              autoComplete="off"
              placeholder={
                saved.mode === 'manual' ? `${saved.url} (saved; type to replace)` : 'http://proxy:3128'
              }
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              {...invalidProps(messageId, typo !== null)}
            />
          </label>
          <label>
            No proxy for{' '}
            <input
              type="text"
              aria-label="No proxy for"
              spellCheck={false}
              autoComplete="off"
              placeholder=".internal.example, 10.0.0.0/8"
              value={noProxy}
              onChange={(e) => setNoProxy(e.target.value)}
            />
          </label>
        </>
      ) : null}
      <button type="submit" disabled={typo !== null || update.isPending}>
        Save proxy
      </button>
      <FormMessage
        id={messageId}
        error={typo ?? (update.isError ? errorMessage(update.error) : null)}
        success={update.isSuccess ? 'Saved.' : null}
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
      <h2 id="certificates-title">Certificate authorities</h2>
      <p className="muted small">
        Behind TLS inspection, give your organisation&apos;s CA certificate (a PEM file) so https connections
        are trusted.
      </p>
      <label>
        CA certificates file{' '}
        <input
          type="text"
          aria-label="CA certificates file"
          spellCheck={false}
          autoComplete="off"
          placeholder="/path/to/corporate-ca.pem"
          value={file}
          onChange={(e) => setFile(e.target.value)}
          {...invalidProps(messageId, typo !== null || update.isError)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={!checked.success || update.isPending}>
          Use this file
        </button>
        <button
          type="button"
          disabled={!props.network.caFile || update.isPending}
          onClick={() => update.mutate({ caFile: null }, { onSuccess: () => setFile('') })}
        >
          Use no file
        </button>
      </div>
      <label className="choice-label">
        <input
          type="checkbox"
          checked={props.network.systemCertificates && props.network.systemCertificatesAvailable}
          disabled={!props.network.systemCertificatesAvailable || update.isPending}
          onChange={(e) => update.mutate({ systemCertificates: e.target.checked })}
        />{' '}
        Trust the system&apos;s certificate store
      </label>
      {props.network.systemCertificatesAvailable ? null : (
        <p className="muted small">
          This runtime cannot read the system&apos;s store (it needs Node 22.15 or later); use a CA file, or
          NODE_EXTRA_CA_CERTS for the CLI.
        </p>
      )}
      <FormMessage
        id={messageId}
        error={typo ?? (update.isError ? errorMessage(update.error) : null)}
        success={update.isSuccess ? 'Saved.' : null}
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
