/** One handle on the Shelf: memoized, so a key typed in the filter renders only the rows that changed. */
import { memo } from 'react';
import { Avatar } from '../components/Avatar';
import { count, localDay, number, plural, pluralWord } from '../format';
import type { ShelfEntry } from '../../shared/wire';
import { shelfText as t } from '../text/shelf';

/** Must match `.shelf-row` in styles/panels.css. */
export const SHELF_ROW_HEIGHT = 56;

/** "3 of 6 reports owned": how much of the handle's menu is in the library, when the shelf says its size. */
function ownedText(owned: number, reportCount: number | null | undefined): string {
  if (reportCount === null || reportCount === undefined || owned > reportCount)
    return t('owned', { reports: plural(owned, t('report'), t('reports')) });
  return t('ownedOf', { owned: number(owned), reports: plural(reportCount, t('report'), t('reports')) });
}

export const ShelfRow = memo(function ShelfRow(props: {
  entry: ShelfEntry;
  index: number;
  current: boolean;
  /** Reports of this handle in the library; undefined when none. */
  owned: number | undefined;
  onOpen(handle: string): void;
}) {
  const { entry, index, current, owned, onOpen } = props;
  return (
    <div
      id={`shelf-${index}`}
      role="option"
      aria-selected={current}
      className={current ? 'shelf-row current' : 'shelf-row'}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: SHELF_ROW_HEIGHT,
        transform: `translateY(${index * SHELF_ROW_HEIGHT}px)`,
      }}
      onClick={() => onOpen(entry.username)}
    >
      <Avatar url={entry.avatarUrl} name={entry.displayName || entry.username} />
      <span className="shelf-name">
        <strong>
          <bdi>{entry.displayName || entry.username}</bdi>
          {entry.affiliationLabel ? (
            <span className="affiliation" title={t('affiliation')}>
              <bdi>{entry.affiliationLabel}</bdi>
            </span>
          ) : null}
        </strong>
        <span className="muted">
          @{entry.username}
          {owned !== undefined ? (
            <span className="owned-mark" data-testid="owned-mark">
              {' '}
              · {ownedText(owned, entry.reportCount)}
            </span>
          ) : null}
        </span>
      </span>
      <span className="shelf-num" title={t('followersTitle')}>
        {count(entry.followers)} {pluralWord(entry.followers ?? 0, t('follower'), t('followers'))}
      </span>
      <span className="shelf-num" title={t('reportsTitle')}>
        {count(entry.reportCount)} {pluralWord(entry.reportCount ?? 0, t('report'), t('reports'))}
      </span>
      <span className="shelf-num muted" title={t('lastUpdate')}>
        {localDay(entry.gatheredAt)}
      </span>
    </div>
  );
});
