/**
 * A menu's reports, each with its checkbox. The list is one tab stop (the current row's checkbox) and the
 * arrows, Home and End move between rows, so Tab goes on to the price panel and Buy after one press however
 * many reports the handle has. An owned report's Read button stays in the tab order: it is an action.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import type { LibraryItem, MenuItemView, TeamReportMark } from '../../shared/rpc';
import { day, dayRange } from '../format';
import { menuText as t } from '../text/menu';

export function MenuReports(props: {
  reports: MenuItemView[];
  /** Ticked: will be bought (owned ones only when buying them again was chosen). */
  chosen: Set<string>;
  /** Owned reports cannot be ticked: buying them again was not chosen. */
  ownedLocked: boolean;
  /** In a team: reports of the quote the team owns or is buying (from the quote's dry run). */
  teamMarks: ReadonlyMap<string, TeamReportMark>;
  /** Owned reports pulled from the team, with who bought them. */
  teamBought: ReadonlyMap<string, NonNullable<LibraryItem['boughtBy']>>;
  onToggle(id: string): void;
  onRead(id: string): void;
}) {
  const { reports } = props;
  const [current, setCurrent] = useState(0);
  const body = useRef<HTMLTableSectionElement>(null);
  const focusRow = (index: number) => {
    const next = Math.max(0, Math.min(reports.length - 1, index));
    setCurrent(next);
    body.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')[next]?.focus();
  };
  const onKey = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (!(event.target instanceof HTMLInputElement)) return;
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: reports.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    focusRow(target);
  };
  const tabStop = Math.min(current, reports.length - 1);
  return (
    <table className="menu-table report-menu" aria-label={t('listLabel')} aria-describedby="report-menu-keys">
      <caption id="report-menu-keys" className="sr-only">
        {t('listKeys')}
      </caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">{t('chosenColumn')}</span>
          </th>
          <th scope="col">{t('dateColumn')}</th>
          <th scope="col">{t('modelColumn')}</th>
          <th scope="col">{t('postsColumn')}</th>
          <th scope="col">{t('coversColumn')}</th>
          <th scope="col">{t('ownedColumn')}</th>
        </tr>
      </thead>
      <tbody ref={body} onKeyDown={onKey}>
        {reports.map((report, index) => {
          const locked = report.owned && props.ownedLocked;
          const bought = report.owned ? props.teamBought.get(report.id) : undefined;
          const mark = props.teamMarks.get(report.id);
          return (
            <tr key={report.id} className={props.chosen.has(report.id) ? 'chosen' : ''}>
              <td>
                <input
                  type="checkbox"
                  // Two reports can share a day: the position keeps each name unique.
                  aria-label={t('chooseReport', {
                    day: day(report.createdAt),
                    position: index + 1,
                    count: reports.length,
                  })}
                  tabIndex={index === tabStop ? 0 : -1}
                  checked={props.chosen.has(report.id)}
                  // Not `disabled`: the row keeps its place in the arrow-key list and says why it cannot be ticked.
                  aria-disabled={locked ? true : undefined}
                  title={locked ? t('ownedLocked') : undefined}
                  onFocus={() => setCurrent(index)}
                  onChange={() => {
                    if (!locked) props.onToggle(report.id);
                  }}
                />
              </td>
              <td>{day(report.createdAt)}</td>
              <td>{report.model}</td>
              <td>{report.postCount}</td>
              <td>{report.dateRange ? dayRange(report.dateRange.from, report.dateRange.to) : '—'}</td>
              <td>
                {report.owned ? (
                  <>
                    {bought ? (
                      <span data-testid="menu-team-mark">{t('teamBought', { analyst: bought.analyst })}</span>
                    ) : (
                      t('owned')
                    )}{' '}
                    <button
                      type="button"
                      className="link"
                      aria-label={t('readReport', {
                        day: day(report.createdAt),
                        position: index + 1,
                        count: reports.length,
                      })}
                      onClick={() => props.onRead(report.id)}
                    >
                      {t('read')}
                    </button>
                  </>
                ) : mark ? (
                  <span className="warn-text" data-testid="menu-team-mark">
                    {mark.state === 'owned'
                      ? t('teamOwned', { analyst: mark.analyst })
                      : t('teamBuying', { analyst: mark.analyst, desk: mark.deskId })}
                  </span>
                ) : (
                  <span className="muted">{t('notOwned')}</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
