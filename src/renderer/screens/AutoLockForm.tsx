/** How long an unlocked keystore stays unlocked unused; it also locks with the screen and on sleep. */
import { useId, useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { AUTO_LOCK_MAX_MINUTES, type SettingsView } from '../../shared/rpc';
import { settingsText as t } from '../text/settings';

export function AutoLockForm(props: { settings: SettingsView }) {
  const [minutes, setMinutes] = useState(String(props.settings.autoLockMinutes));
  const update = useRpcMutation('settings.update');
  const demo = useRpcQuery('app.info', {}).data?.demo ?? false;
  const messageId = useId();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ autoLockMinutes: Number(minutes) });
      }}
    >
      <label>
        {t('lockAfter')}{' '}
        <input
          type="number"
          min="1"
          max={AUTO_LOCK_MAX_MINUTES}
          step="1"
          required
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          {...invalidProps(messageId, update.isError)}
        />
      </label>
      <button type="submit" disabled={update.isPending}>
        {t('saveLockTime')}
      </button>
      <p className="muted small">{t('lockExplain')}</p>
      {demo ? (
        <p className="muted small" data-testid="auto-lock-demo">
          {t('lockDemo')}
        </p>
      ) : null}
      <FormMessage
        id={messageId}
        error={update.isError ? errorMessage(update.error) : null}
        success={update.isSuccess ? t('saved') : null}
      />
    </form>
  );
}
