/**
 * A Settings card for one optional value (a WalletConnect project id, a chain RPC URL): a field checked as it
 * is typed with the same schema core applies, a button to save it and one to go back to none.
 */
import { useId, useState, type ReactNode } from 'react';
import type { ZodType } from 'zod';
import { useRpcMutation } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { FormMessage, invalidProps } from '../components/FormMessage';
import type { SettingsView } from '../../shared/rpc';
import { settingsText as t } from '../text/settings';

type OptionalSetting = 'walletConnectProjectId' | 'chainRpcUrl';

export function OptionalSettingForm(props: {
  setting: OptionalSetting;
  settings: SettingsView;
  schema: ZodType<string>;
  title: string;
  label: string;
  inputLabel: string;
  inputType: 'text' | 'url';
  placeholder?: string;
  saveLabel: string;
  clearLabel: string;
  children: ReactNode;
}) {
  const saved = props.settings[props.setting];
  const [value, setValue] = useState(saved ?? '');
  const update = useRpcMutation('settings.update');
  const checked = props.schema.safeParse(value);
  const messageId = useId();
  const invalid = value.trim() !== '' && !checked.success;
  return (
    <form
      className="settings-block"
      onSubmit={(e) => {
        e.preventDefault();
        if (checked.success)
          update.mutate(
            { [props.setting]: checked.data },
            { onSuccess: (next) => setValue(next[props.setting] ?? '') },
          );
      }}
    >
      <h2>{props.title}</h2>
      {props.children}
      <label>
        {props.label}{' '}
        <input
          type={props.inputType}
          aria-label={props.inputLabel}
          spellCheck={false}
          autoComplete="off"
          placeholder={props.placeholder}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          {...invalidProps(messageId, invalid || update.isError)}
        />
      </label>
      <div className="inline-form">
        <button type="submit" disabled={!checked.success || update.isPending}>
          {props.saveLabel}
        </button>
        <button
          type="button"
          disabled={!saved || update.isPending}
          onClick={() => update.mutate({ [props.setting]: null }, { onSuccess: () => setValue('') })}
        >
          {props.clearLabel}
        </button>
      </div>
      <FormMessage
        id={messageId}
        error={
          invalid ? checked.error?.issues[0]?.message : update.isError ? errorMessage(update.error) : null
        }
        success={update.isSuccess ? t('saved') : null}
      />
    </form>
  );
}
