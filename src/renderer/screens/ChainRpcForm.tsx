/**
 * The chain RPC: which one the desk asks (balance, reconciliation, receipts, contract-wallet signatures), where
 * it was chosen, and a field to choose one. A run's own RPC (--rpc, the demo's chain) still comes first.
 */
import { useRpcQuery } from '../rpc/context';
import { networkName } from '../format';
import { httpUrlSchema, type ChainRpcSource, type SettingsView } from '../../shared/rpc';
import { OptionalSettingForm } from './OptionalSettingForm';
import { encryptedOrLocal } from '../../shared/transport';
import { settingsText as t } from '../text/settings';

const SOURCE_WORDS: Record<ChainRpcSource, string> = {
  run: t('sourceRun'),
  settings: t('sourceSettings'),
  default: t('sourceDefault'),
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
      title={t('chainTitle')}
      label={t('rpcUrl')}
      inputLabel={t('chainRpcUrl')}
      inputType="url"
      placeholder={t('rpcPlaceholder')}
      saveLabel={t('useRpc')}
      clearLabel={t('useDefault')}
    >
      <p className="muted small">{t('chainExplain')}</p>
      <p className="small" data-testid="chain-rpc-in-use">
        {inUse ? (
          <>
            {t('inUse', { network: network ? t('inUseNetwork', { network: networkName(network) }) : '' })}
            <code>{inUse.url}</code>
            {t('inUseSource', { source: SOURCE_WORDS[inUse.source] })}
            {encryptedOrLocal(inUse.url) ? null : t('plainHttp')}
          </>
        ) : (
          t('inUseNone')
        )}
      </p>
    </OptionalSettingForm>
  );
}
