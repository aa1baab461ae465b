/**
 * The chain RPC: which one the desk asks (balance, reconciliation, receipts, contract-wallet signatures), where
 * it was chosen, and a field to choose one. A run's own RPC (--rpc, the demo's chain) still comes first.
 */
import { useRpcQuery } from '../rpc/context';
import { networkName } from '../format';
import { httpUrlSchema, type ChainRpcSource, type SettingsView } from '../../shared/rpc';
import { OptionalSettingForm } from './OptionalSettingForm';
import { encryptedOrLocal } from '../../shared/transport';

const SOURCE_WORDS: Record<ChainRpcSource, string> = {
  run: 'given for this run',
  settings: 'chosen here',
  default: "the network's public endpoint",
};

export function ChainRpcForm(props: { settings: SettingsView }) {
  const wallet = useRpcQuery('wallet.status', {});
  const inUse = wallet.data?.chainRpc ?? null;
  const network = wallet.data?.network ?? null;
  return (
    <OptionalSettingForm
      setting="chainRpcUrl"
      settings={props.settings}
      schema={httpUrlSchema}
      title="Chain RPC"
      label="RPC URL"
      inputLabel="Chain RPC URL"
      inputType="url"
      placeholder="https://…"
      saveLabel="Use this RPC"
      clearLabel="Use the default"
    >
      <p className="muted small">
        After a payment leaves, the chain decides whether money moved. Base and Base Sepolia have public
        endpoints; a private one is faster and more reliable.
      </p>
      <p className="small" data-testid="chain-rpc-in-use">
        {inUse ? (
          <>
            In use{network ? ` for ${networkName(network)}` : ''}: <code>{inUse.url}</code> (
            {SOURCE_WORDS[inUse.source]})
            {encryptedOrLocal(inUse.url)
              ? null
              : '. It is plain http to another host, so it is not used and no payment is made: choose an https RPC, or use the default.'}
          </>
        ) : (
          'In use: none yet (chosen by the network of the first quote).'
        )}
      </p>
    </OptionalSettingForm>
  );
}
