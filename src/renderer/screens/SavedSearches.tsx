/**
 * The Library's side panel of saved searches: save the query in the search box under a name, run one with a
 * click or Enter, rename it in place (Enter keeps, Escape cancels), delete it.
 */
import { useState, type FormEvent } from 'react';
import type { SavedSearch } from '../../shared/rpc';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { ErrorLine } from '../components/States';
import { libraryText as t } from '../text/library';

function SavedSearchRow(props: { search: SavedSearch; active: boolean; onRun(query: string): void }) {
  const { search } = props;
  const [renaming, setRenaming] = useState<string | null>(null);
  const rename = useRpcMutation('searches.rename', { onSuccess: () => setRenaming(null) });
  const remove = useRpcMutation('searches.delete');
  if (renaming !== null)
    return (
      <li>
        <input
          aria-label={t('newName', { name: search.name })}
          value={renaming}
          autoFocus
          maxLength={80}
          onChange={(e) => setRenaming(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && renaming.trim()) rename.mutate({ id: search.id, name: renaming });
            if (e.key === 'Escape') setRenaming(null);
          }}
        />
        <ErrorLine error={rename.error} />
      </li>
    );
  return (
    <li className={props.active ? 'saved-search active' : 'saved-search'}>
      <button
        type="button"
        className="link saved-search-run"
        title={search.query}
        aria-current={props.active ? 'true' : undefined}
        onClick={() => props.onRun(search.query)}
      >
        <bdi>{search.name}</bdi>
      </button>
      <span className="saved-search-actions">
        <button
          type="button"
          className="link small"
          aria-label={t('renameNamed', { name: search.name })}
          onClick={() => setRenaming(search.name)}
        >
          {t('rename')}
        </button>
        <button
          type="button"
          className="link small"
          aria-label={t('deleteNamed', { name: search.name })}
          onClick={() => remove.mutate({ id: search.id })}
        >
          {t('delete')}
        </button>
      </span>
      <ErrorLine error={remove.error} />
    </li>
  );
}

export function SavedSearches(props: { query: string; onRun(query: string): void }) {
  const list = useRpcQuery('searches.list', {});
  const [name, setName] = useState('');
  const save = useRpcMutation('searches.save', { onSuccess: () => setName('') });
  const query = props.query.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && query) save.mutate({ name, query });
  };
  const searches = list.data?.searches ?? [];
  return (
    <aside className="saved-searches" aria-labelledby="saved-searches-title">
      <h2 id="saved-searches-title">{t('savedSearches')}</h2>
      {searches.length === 0 && list.data ? <p className="muted small">{t('noSavedSearches')}</p> : null}
      <ul aria-label={t('savedSearches')}>
        {searches.map((search) => (
          <SavedSearchRow
            key={search.id}
            search={search}
            active={search.query === query}
            onRun={props.onRun}
          />
        ))}
      </ul>
      <form onSubmit={submit} className="saved-search-form">
        <input
          aria-label={t('searchName')}
          placeholder={t('nameIt')}
          value={name}
          maxLength={80}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" disabled={!query || !name.trim() || save.isPending}>
          {t('saveSearch')}
        </button>
      </form>
      <ErrorLine error={save.error} />
    </aside>
  );
}
