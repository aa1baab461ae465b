/**
 * Settings → Use with an AI assistant: the MCP client configuration that starts `intel-desk mcp` on this
 * library, with this computer's command and data folder, ready to copy (core builds it: app.assistantSetup).
 */
import { CopyButton } from '../components/CopyButton';
import { ErrorMessage } from '../components/States';
import { useRpcQuery } from '../rpc/context';

export function AssistantSetupCard() {
  const setup = useRpcQuery('app.assistantSetup', {});
  return (
    <div className="settings-block" aria-labelledby="assistant-title" role="group">
      <h2 id="assistant-title">Use with an AI assistant</h2>
      <p className="muted small">
        An assistant that speaks MCP (Claude Desktop, others) can search, read and price the reports of this
        library. It buys nothing itself: what it asks for waits for your approval under Purchases.
      </p>
      {setup.isError ? <ErrorMessage error={setup.error} onRetry={() => void setup.refetch()} /> : null}
      {setup.data ? (
        <>
          <p className="small">
            Add this to the client&apos;s configuration (Claude Desktop: Settings → Developer → Edit Config,
            claude_desktop_config.json; other clients: their mcpServers entry), then restart the client.
          </p>
          <pre className="assistant-config" tabIndex={0} data-testid="assistant-config">
            {setup.data.config}
          </pre>
          <p>
            <CopyButton value={setup.data.config} label="Copy the assistant configuration" />
          </p>
          <p className="muted small" data-testid="assistant-library">
            It reads the library in {setup.data.dataDir}.
            {setup.data.commandOnPath
              ? ' The command intel-desk must be on this computer’s PATH (README: Command line).'
              : ''}
          </p>
        </>
      ) : null}
    </div>
  );
}
