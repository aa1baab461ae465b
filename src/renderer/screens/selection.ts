/** What the person chose on a menu, the exact RPC selection that prices it, and why nothing can be priced. */
import type { MenuItemView, Selection } from '../../shared/rpc';
import { plural } from '../format';
import { menuText as t } from '../text/menu';

export interface Choice {
  mode: 'all' | 'dates' | 'pick';
  from: string;
  to: string;
  picked: string[];
  /** Buy reports of the choice that are already owned again: an explicit choice, off by default. */
  includeOwned: boolean;
}

export const initialChoice: Choice = { mode: 'all', from: '', to: '', picked: [], includeOwned: false };

/** Date inputs give days; the service compares createdAt strings, so bounds cover whole days. */
export function bounds(choice: Choice): { from?: string; to?: string } {
  return {
    ...(choice.from ? { from: `${choice.from}T00:00:00.000Z` } : {}),
    ...(choice.to ? { to: `${choice.to}T23:59:59.999Z` } : {}),
  };
}

function inRange(item: MenuItemView, range: { from?: string; to?: string }): boolean {
  return (!range.from || item.createdAt >= range.from) && (!range.to || item.createdAt <= range.to);
}

export const rangeBackwards = (choice: Choice) =>
  choice.mode === 'dates' && choice.from !== '' && choice.to !== '' && choice.from > choice.to;

/**
 * The menu items the choice covers, newest first like the menu: owned or not for All and the dates; for
 * Individual reports, an owned one only while buying owned ones again is chosen, since only then can it be
 * ticked (a report just bought drops out of the choice and is shown unticked).
 */
export function coveredItems(reports: MenuItemView[], choice: Choice): MenuItemView[] {
  if (rangeBackwards(choice)) return [];
  const range = bounds(choice);
  const picked = new Set(choice.picked);
  return reports.filter((item) => {
    if (choice.mode === 'dates') return inRange(item, range);
    if (choice.mode === 'pick') return picked.has(item.id) && (choice.includeOwned || !item.owned);
    return true;
  });
}

/** The items a purchase of the choice would buy: owned ones only when buying them again was chosen. */
export function chosenItems(reports: MenuItemView[], choice: Choice): MenuItemView[] {
  const covered = coveredItems(reports, choice);
  return choice.includeOwned ? covered : covered.filter((item) => !item.owned);
}

/** Why the choice cannot be priced, in words; null when it can. */
export function emptyReason(reports: MenuItemView[], choice: Choice): string | null {
  // The dates themselves say what is wrong with them (Menu); the price panel only says why it is empty.
  if (rangeBackwards(choice)) return t('datesOutOfOrder');
  const covered = coveredItems(reports, choice);
  // Nothing to choose from is not "nothing chosen": every report of the handle is already owned.
  if (reports.length > 0 && reports.every((item) => item.owned) && !choice.includeOwned) {
    if (choice.mode === 'all' || covered.length === 0)
      return t('ownEvery', { reports: plural(reports.length, t('report'), t('reports')) });
  }
  if (covered.length === 0) return choice.mode === 'dates' ? t('noneInRange') : t('nothingChosen');
  if (chosenItems(reports, choice).length === 0) {
    const where = choice.mode === 'all' ? '' : choice.mode === 'dates' ? t('inThisRange') : t('youChose');
    return t('ownAll', { reports: plural(covered.length, t('report'), t('reports')), where });
  }
  return null;
}

/** The choice as asked of core; core leaves owned reports out unless the quote asks to include them. */
export function toSelection(reports: MenuItemView[], choice: Choice): Selection | null {
  if (emptyReason(reports, choice) !== null) return null;
  if (choice.mode === 'all') return { kind: 'all' };
  if (choice.mode === 'dates' && (choice.from || choice.to)) return { kind: 'dates', ...bounds(choice) };
  return { kind: 'ids', ids: coveredItems(reports, choice).map((item) => item.id) };
}

/**
 * Reports of this menu the library holds from other services (the demo on another port, a service that
 * moved): to this service they are not owned, and buying them here pays again, which the menu says.
 */
const bareService = (url: string) => url.replace(/\/+$/, '');

/**
 * Who of the team bought each report the library holds from this service: a copy of the same report id from
 * another service (seeded alike, or an older address) says nothing of this one.
 */
export function teamBoughtHere<Bought>(
  library: readonly { id: string; serviceUrl: string; boughtBy?: Bought | null }[],
  serviceUrl: string,
): Map<string, Bought> {
  return new Map(
    library.flatMap((item) =>
      item.boughtBy && bareService(item.serviceUrl) === bareService(serviceUrl)
        ? [[item.id, item.boughtBy] as const]
        : [],
    ),
  );
}

export function ownedElsewhere(
  reports: MenuItemView[],
  library: readonly { id: string; serviceUrl: string }[],
  serviceUrl: string,
): { count: number; services: string[] } {
  const here = new Set(reports.filter((item) => !item.owned).map((item) => item.id));
  const found = library.filter(
    (item) => bareService(item.serviceUrl) !== bareService(serviceUrl) && here.has(item.id),
  );
  return {
    count: new Set(found.map((item) => item.id)).size,
    services: [...new Set(found.map((item) => item.serviceUrl))],
  };
}
