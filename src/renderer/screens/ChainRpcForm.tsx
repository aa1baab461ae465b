/**
 * The chain RPC: which one the desk asks (balance, reconciliation, receipts, contract-wallet signatures), where
 * it was chosen, and a field to choose one. A run's own RPC (--rpc, the demo's chain) still comes first.
 */
import { useId, useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { networkName } from '../format';
import { httpUrlSchema, type ChainRpcSource, type SettingsView } from '../../shared/rpc';

const SOURCE_WORDS: Record<ChainRpcSource, string> = {
  run: 'given for this run',
  settings: 'chosen here',
  default: "the network's public endpoint",
};

export function ChainRpcForm(props: { settings: SettingsView }) {
  const [url, setUrl] = useState(props.settings.chainRpcUrl ?? '');
  const update = useRpcMutation('settings.update');
  const wallet = useRpcQuery('wallet.status', {});
  const checked = httpUrlSchema.safeParse(url);
  const messageId = useId();
  const invalid = url.trim() !== '' && !checked.success;
  const inUse = wallet.data?.chainRpc ?? null;
  const network = wallet.data?.network ?? null;
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        if (checked.success)
          update.mutate(
            { chainRpcUrl: checked.data },
            { onSuccess: (saved) => setUrl(saved.chainRpcUrl ?? '') },
          );
      }}
    >
      <h2>Chain RPC</h2>
      <p className="muted small">
        After a payment leaves, the chain decides whether money moved. Base and Base Sepolia have public
        endpoints; a private one is faster and more reliable.
      </p>
      <p className="small" data-testid="chain-rpc-in-use">
        {inUse ? (
          <>
            In use{network ? ` for ${networkName(network)}` : ''}: <code>{inUse.url}</code> (
            {SOURCE_WORDS[inUse.source]})
          </>
        ) : (
          'In use: none yet (chosen by the network of the first quote).'
        )}
      </p>
      <label>
        RPC URL{' '}
        <input
          type="url"
          aria-label="Chain RPC URL"
          spellCheck={false}
          autoComplete="off"
          placeholder="https://…"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          {...invalidProps(messageId, invalid || update.isError)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={!checked.success || update.isPending}>
          Use this RPC
        </button>
        <button
          type="button"
          disabled={!props.settings.chainRpcUrl || update.isPending}
          onClick={() => update.mutate({ chainRpcUrl: null }, { onSuccess: () => setUrl('') })}
        >
          Use the default
        </button>
      </div>
      <FormMessage
        id={messageId}
        error={
          invalid ? checked.error?.issues[0]?.message : update.isError ? errorMessage(update.error) : null
        }
        success={update.isSuccess ? 'Saved.' : null}
      />
    </form>
  );
}
