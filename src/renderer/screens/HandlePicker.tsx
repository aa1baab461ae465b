/**
 * A handle field that suggests the shelf's handles as the person types: a native combobox (an input with a
 * datalist), so the browser gives it the keyboard and screen-reader behaviour people already know.
 * Suggestions come from core's copy of the shelf (shelf.page), never the whole shelf at once.
 */
import { useId } from 'react';
import { useRpcQuery } from '../rpc/context';
import { useDebounced } from '../hooks/debounce';
import { SHELF_SUMMARY, useShelfHead } from './shelf-pages';
import { dossierText as t } from '../text/dossier';

const SUGGESTIONS = 30;

export function HandlePicker(props: { label: string; value: string; onChange(value: string): void }) {
  const listId = useId();
  const summary = useRpcQuery('shelf.summary', SHELF_SUMMARY);
  const text = useDebounced(props.value.trim().replace(/^@/, ''), 150);
  const head = useShelfHead(summary.data, text, 'updated');
  const entries = head.data?.entries.slice(0, SUGGESTIONS) ?? [];
  return (
    <>
      <input
        type="text"
        aria-label={props.label}
        list={listId}
        placeholder={t('handlePlaceholder')}
        autoComplete="off"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <datalist id={listId} data-testid="handle-suggestions">
        {entries.map((entry) => (
          <option key={entry.username} value={entry.username}>
            {entry.displayName ? `${entry.displayName} @${entry.username}` : `@${entry.username}`}
          </option>
        ))}
      </datalist>
    </>
  );
}
