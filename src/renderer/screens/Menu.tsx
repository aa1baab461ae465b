/** One handle's free menu: choose reports, plan what they cost, see the live price, buy. */
import { allChoiceWords } from './purchase/choice-words';
import { useId, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRpc, useRpcQuery } from '../rpc/context';
import { rpcQueryKey } from '../rpc/query-key';
import { useNavigate } from '../hooks/route';
import { useDebounced } from '../hooks/debounce';
import { Empty, ErrorMessage, Loading, StaleBanner } from '../components/States';
import {
  chosenItems,
  coveredItems,
  emptyReason,
  initialChoice,
  ownedElsewhere,
  teamBoughtHere,
  rangeBackwards,
  toSelection,
  type Choice,
} from './selection';
import { PurchasePanel } from './purchase/PurchasePanel';
import { Planner } from './purchase/Planner';
import { useChoiceQuote } from './purchase/useChoiceQuote';
import { MenuReports } from './MenuReports';
import { plural } from '../format';
import { menuText as t } from '../text/menu';

export function MenuScreen(props: { handle: string }) {
  const { handle } = props;
  const navigate = useNavigate();
  const { client } = useRpc();
  const queryClient = useQueryClient();
  const menu = useRpcQuery('menu.get', { handle });
  const settings = useRpcQuery('settings.get', {});
  const held = useRpcQuery('library.list', { handle, limit: 1000 });
  const [choice, setChoice] = useState<Choice>(initialChoice);
  const reports = useMemo(() => menu.data?.reports ?? [], [menu.data]);
  const covered = useMemo(() => coveredItems(reports, choice), [reports, choice]);
  const chosen = useMemo(() => new Set(chosenItems(reports, choice).map((r) => r.id)), [reports, choice]);
  const selection = useMemo(() => toSelection(reports, choice), [reports, choice]);
  const settledSelection = useDebounced(selection, 350);
  // The same quote the price panel shows (one request): in a team it says who owns or is buying its reports.
  const quote = useChoiceQuote(menu.data?.username ?? handle, settledSelection, choice.includeOwned);
  const teamMarks = useMemo(
    () =>
      new Map(
        quote.data?.team?.reachable && !quote.isError ? quote.data.team.reports.map((m) => [m.id, m]) : [],
      ),
    [quote.data, quote.isError],
  );
  const teamBought = useMemo(
    () => teamBoughtHere(held.data?.items ?? [], settings.data?.serviceUrl ?? ''),
    [held.data, settings.data],
  );
  const ownedCount = reports.filter((r) => r.owned).length;
  const ownedInChoice = covered.filter((r) => r.owned).length;
  const elsewhere = useMemo(
    () =>
      settings.data && held.data
        ? ownedElsewhere(reports, held.data.items, settings.data.serviceUrl)
        : { count: 0, services: [] },
    [reports, settings.data, held.data],
  );
  const datesBackwards = rangeBackwards(choice);
  const datesErrorId = useId();
  const datesError = datesBackwards
    ? { 'aria-invalid': true as const, 'aria-describedby': datesErrorId }
    : {};

  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChoice({ ...choice, mode: 'pick', picked: [...next] });
  };
  // Every report that can be ticked: owned ones only while buying them again is chosen.
  const tickAll = () =>
    setChoice({
      ...choice,
      mode: 'pick',
      picked: reports.filter((r) => choice.includeOwned || !r.owned).map((r) => r.id),
    });
  const tickNone = () => setChoice({ ...choice, mode: 'pick', picked: [] });
  const missingCount = reports.length - ownedCount;
  const allWords = allChoiceWords(reports.length, missingCount);

  const refresh = async () => {
    const fresh = await client.call('menu.get', { handle, refresh: true });
    queryClient.setQueryData(rpcQueryKey('menu.get', { handle }), fresh);
  };

  return (
    <section aria-labelledby="menu-title">
      <div className="screen-head">
        <button type="button" className="link" onClick={() => navigate({ screen: 'shelf' })}>
          {t('backToShelf')}
        </button>
        <h1 id="menu-title">
          <bdi>{menu.data?.displayName ?? handle}</bdi>{' '}
          <span className="muted">
            @<bdi>{menu.data?.username ?? handle}</bdi>
          </span>
        </h1>
        <div className="toolbar">
          {ownedCount > 0 ? (
            <button type="button" onClick={() => navigate({ screen: 'library', handle })}>
              {t('readOwned', { count: ownedCount })}
            </button>
          ) : null}
          <button type="button" onClick={() => void refresh()}>
            {t('refresh')}
          </button>
        </div>
      </div>
      {menu.data ? (
        <StaleBanner stale={menu.data.stale} fetchedAt={menu.data.fetchedAt} reason={menu.data.staleReason} />
      ) : null}
      {menu.isPending ? <Loading label={t('loading')} /> : null}
      {menu.isError ? <ErrorMessage error={menu.error} onRetry={() => void menu.refetch()} /> : null}
      {menu.data && reports.length === 0 ? <Empty title={t('noReports')} /> : null}
      {elsewhere.count > 0 ? (
        <p className="notice" data-testid="owned-elsewhere">
          {t(elsewhere.count === 1 ? 'elsewhereOne' : 'elsewhereMany', {
            reports: plural(elsewhere.count, t('report'), t('reports')),
            services: elsewhere.services.join(', '),
            url: settings.data?.serviceUrl ?? '',
          })}
        </p>
      ) : null}
      {reports.length > 0 ? (
        <div className="menu-layout">
          <div>
            <fieldset className="choice">
              <legend>{t('choose')}</legend>
              <label>
                <input
                  type="radio"
                  name="mode"
                  checked={choice.mode === 'all'}
                  onChange={() => setChoice({ ...choice, mode: 'all' })}
                />{' '}
                {allWords}
              </label>
              <label>
                <input
                  type="radio"
                  name="mode"
                  checked={choice.mode === 'dates'}
                  onChange={() => setChoice({ ...choice, mode: 'dates' })}
                />{' '}
                {t('dateRange')}
              </label>
              {choice.mode === 'dates' ? (
                <span className="dates">
                  <label>
                    {t('from')}{' '}
                    <input
                      type="date"
                      aria-label={t('fromDate')}
                      {...datesError}
                      value={choice.from}
                      onChange={(e) => setChoice({ ...choice, from: e.target.value })}
                    />
                  </label>
                  <label>
                    {t('to')}{' '}
                    <input
                      type="date"
                      aria-label={t('toDate')}
                      {...datesError}
                      value={choice.to}
                      onChange={(e) => setChoice({ ...choice, to: e.target.value })}
                    />
                  </label>
                  {datesBackwards ? (
                    <span className="error-text" role="alert" id={datesErrorId} data-testid="dates-error">
                      {t('datesBackwards')}
                    </span>
                  ) : null}
                </span>
              ) : null}
              <label>
                <input
                  type="radio"
                  name="mode"
                  checked={choice.mode === 'pick'}
                  // Nothing ticked: choosing one by one starts from none, not from every report.
                  onChange={() => setChoice({ ...choice, mode: 'pick', picked: [] })}
                />{' '}
                {t('individual')}
              </label>
              {(choice.mode === 'pick' ? ownedCount : ownedInChoice) > 0 ? (
                <label className={choice.includeOwned ? 'warn-text' : ''}>
                  <input
                    type="checkbox"
                    checked={choice.includeOwned}
                    onChange={(e) => setChoice({ ...choice, includeOwned: e.target.checked })}
                  />{' '}
                  {choice.mode === 'pick'
                    ? t('chooseOwnedAgain')
                    : t('buyOwnedAgain', { count: ownedInChoice })}
                </label>
              ) : null}
            </fieldset>
            <Planner
              handle={menu.data?.username ?? handle}
              counts={{ all: reports.length, missing: missingCount, chosen: chosen.size }}
              selection={settledSelection}
              includeOwned={choice.includeOwned}
              settling={settledSelection !== selection}
            />
            <div className="toolbar tick-all" role="group" aria-label={t('tickGroup')}>
              <button type="button" onClick={tickAll}>
                {t('tickAll')}
              </button>
              <button type="button" onClick={tickNone}>
                {t('tickNone')}
              </button>
            </div>
            <MenuReports
              reports={reports}
              chosen={chosen}
              ownedLocked={!choice.includeOwned}
              teamMarks={teamMarks}
              teamBought={teamBought}
              onToggle={toggle}
              onRead={(id) => navigate({ screen: 'report', id })}
            />
          </div>
          <PurchasePanel
            handle={menu.data?.username ?? handle}
            selection={settledSelection}
            includeOwned={choice.includeOwned}
            emptyReason={emptyReason(reports, choice)}
            choiceKey={JSON.stringify(choice)}
            settling={settledSelection !== selection}
          />
        </div>
      ) : null}
    </section>
  );
}
