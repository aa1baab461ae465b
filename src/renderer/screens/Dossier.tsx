/** Staff only: open a handle's full dossier through the bundle route (the library secret stays in core). */
import { useState } from 'react';
import { useRpcQuery } from '../rpc/context';
import { errorCode } from '../rpc/client';
import { useNavigate } from '../hooks/route';
import { DemoSecretHint } from './DemoSecretHint';
import { Empty, ErrorMessage, Loading } from '../components/States';
import { DossierEditor } from '../dossier/DossierEditor';
import { HandlePicker } from './HandlePicker';
import { dossierText as t } from '../text/dossier';

export function DossierScreen(props: { handle?: string | undefined }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState(props.handle ?? '');
  const settings = useRpcQuery('settings.get', {});
  const handle = props.handle;
  const dossier = useRpcQuery(
    'dossier.open',
    { handle: handle ?? '' },
    { enabled: Boolean(handle && settings.data?.librarySecretSet), staleTime: Infinity, gcTime: 0 },
  );
  // One message for a refused secret, whether the last check or this request found it; retrying cannot help.
  const secretRefused =
    Boolean(settings.data?.librarySecretSet && settings.data.librarySecretAccepted === false) ||
    errorCode(dossier.error) === 'library_secret_refused';
  return (
    <section aria-labelledby="dossier-title">
      <div className="screen-head">
        <h1 id="dossier-title">{handle ? t('titleHandle', { handle }) : t('title')}</h1>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed.trim()) navigate({ screen: 'dossier', handle: typed.trim().replace(/^@/, '') });
          }}
        >
          <HandlePicker label={t('handleToOpen')} value={typed} onChange={setTyped} />
          <button type="submit">{t('open')}</button>
        </form>
      </div>
      {settings.data && !settings.data.librarySecretSet ? (
        <Empty title={t('needSecret')}>
          <p>
            {t('staffEnter')}{' '}
            <button type="button" className="link" onClick={() => navigate({ screen: 'settings' })}>
              {t('settings')}
            </button>
            {t('staffEnd')}
          </p>
          <DemoSecretHint offered={settings.data.demoLibrarySecretOffered} />
        </Empty>
      ) : null}
      {secretRefused ? (
        <div className="state state-error" role="alert" data-testid="secret-refused">
          <p>
            {t('refused')}{' '}
            <button type="button" className="link" onClick={() => navigate({ screen: 'settings' })}>
              {t('settings')}
            </button>
            {t('refusedEnd')}
          </p>
        </div>
      ) : null}
      {settings.data?.librarySecretSet && !handle ? <Empty title={t('choose')} /> : null}
      {handle && dossier.isPending && dossier.fetchStatus === 'fetching' ? (
        <Loading label={t('reading')} />
      ) : null}
      {dossier.isError && !secretRefused ? (
        <ErrorMessage error={dossier.error} onRetry={() => void dossier.refetch()} />
      ) : null}
      {handle && dossier.data ? (
        <DossierEditor
          key={`${handle}:${dossier.dataUpdatedAt}`}
          handle={handle}
          view={dossier.data}
          onReload={() => void dossier.refetch()}
        />
      ) : null}
    </section>
  );
}
