/** Staff only: open a handle's full dossier through the bundle route (the library secret stays in core). */
import { useState } from 'react';
import { useRpcQuery } from '../rpc/context';
import { errorCode } from '../rpc/client';
import { useNavigate } from '../hooks/route';
import { DemoSecretHint } from './DemoSecretHint';
import { Empty, ErrorMessage, Loading } from '../components/States';
import { DossierEditor } from '../dossier/DossierEditor';
import { HandlePicker } from './HandlePicker';

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
        <h1 id="dossier-title">Dossiers{handle ? `: @${handle}` : ''}</h1>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed.trim()) navigate({ screen: 'dossier', handle: typed.trim().replace(/^@/, '') });
          }}
        >
          <HandlePicker label="Handle to open" value={typed} onChange={setTyped} />
          <button type="submit">Open</button>
        </form>
      </div>
      {settings.data && !settings.data.librarySecretSet ? (
        <Empty title="Dossiers need the library secret.">
          <p>
            Staff enter it once in{' '}
            <button type="button" className="link" onClick={() => navigate({ screen: 'settings' })}>
              Settings
            </button>
            ; it stays in the desk's core and is never shown again.
          </p>
          <DemoSecretHint offered={settings.data.demoLibrarySecretOffered} />
        </Empty>
      ) : null}
      {secretRefused ? (
        <div className="state state-error" role="alert" data-testid="secret-refused">
          <p>
            The service refused the library secret. Enter the right one in{' '}
            <button type="button" className="link" onClick={() => navigate({ screen: 'settings' })}>
              Settings
            </button>
            ; opening the dossier again will not help until then.
          </p>
        </div>
      ) : null}
      {settings.data?.librarySecretSet && !handle ? (
        <Empty title="Choose or type a handle to open its dossier." />
      ) : null}
      {handle && dossier.isPending && dossier.fetchStatus === 'fetching' ? (
        <Loading label="Reading the dossier…" />
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
