/**
 * Settings → Use with an AI assistant: the MCP client configuration that starts `intel-desk mcp` on this
 * library, with this computer's command and data folder, ready to copy (core builds it: app.assistantSetup).
 */
import { CopyButton } from '../components/CopyButton';
import { ErrorMessage } from '../components/States';
import { useRpcQuery } from '../rpc/context';
import { settingsText as t } from '../text/settings';

export function AssistantSetupCard() {
  const setup = useRpcQuery('app.assistantSetup', {});
  return (
    <div className="settings-block" aria-labelledby="assistant-title" role="group">
      <h2 id="assistant-title">{t('assistantTitle')}</h2>
      <p className="muted small">{t('assistantExplain')}</p>
      {setup.isError ? <ErrorMessage error={setup.error} onRetry={() => void setup.refetch()} /> : null}
      {setup.data ? (
        <>
          <p className="small">{t('assistantAdd')}</p>
          <pre className="assistant-config" tabIndex={0} data-testid="assistant-config">
            {setup.data.config}
          </pre>
          <p>
            <CopyButton value={setup.data.config} label={t('copyConfig')} />
          </p>
          <p className="muted small" data-testid="assistant-library">
            {t('readsLibrary', { dir: setup.data.dataDir })}
            {setup.data.commandOnPath ? t('onPath') : ''}
          </p>
        </>
      ) : null}
    </div>
  );
}
