/** What the person chose on a menu, and the exact RPC selection that buys it. */
import type { MenuItemView, Selection } from '../../shared/rpc';

export interface Choice {
  mode: 'all' | 'dates' | 'pick';
  from: string;
  to: string;
  picked: string[];
  missingOnly: boolean;
}

export const initialChoice: Choice = { mode: 'all', from: '', to: '', picked: [], missingOnly: false };

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

/** The menu items the choice covers, newest first like the menu. */
export function chosenItems(reports: MenuItemView[], choice: Choice): MenuItemView[] {
  const range = bounds(choice);
  const picked = new Set(choice.picked);
  const covered = reports.filter((item) => {
    if (choice.mode === 'dates') return inRange(item, range);
    if (choice.mode === 'pick') return picked.has(item.id);
    return true;
  });
  return choice.missingOnly ? covered.filter((item) => !item.owned) : covered;
}

export function toSelection(reports: MenuItemView[], choice: Choice): Selection | null {
  const items = chosenItems(reports, choice);
  if (items.length === 0) return null;
  if (choice.mode === 'all' && !choice.missingOnly) return { kind: 'all' };
  if (choice.mode === 'dates' && !choice.missingOnly && (choice.from || choice.to)) {
    return { kind: 'dates', ...bounds(choice) };
  }
  return { kind: 'ids', ids: items.map((item) => item.id) };
}
