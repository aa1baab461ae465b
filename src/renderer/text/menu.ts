/**
 * A handle's menu: the screen (Menu.tsx), its list of reports (MenuReports.tsx), the "every report" words
 * (purchase/choice-words.ts) and why a choice has no price (selection.ts).
 */
import { catalogue } from './catalogue';

export const MENU_TEXT = {
  backToShelf: '← Shelf',
  readOwned: 'Read owned ({count})',
  refresh: 'Refresh',
  loading: 'Loading the menu…',
  noReports: 'This handle has no shared reports.',
  report: 'report',
  reports: 'reports',
  elsewhereOne:
    'Your Library holds {reports} of this menu bought from {services}, another service than the one in use ({url}). Here it is not yours: buying it here pays again. Settings → Service URL goes back to the other service.',
  elsewhereMany:
    'Your Library holds {reports} of this menu bought from {services}, another service than the one in use ({url}). Here they are not yours: buying them here pays again. Settings → Service URL goes back to the other service.',
  choose: 'Choose',
  allChoice: 'All {all} ({missing})',
  allOwned: 'all owned',
  missing: '{missing} missing',
  dateRange: 'A date range',
  from: 'From',
  fromDate: 'From date',
  to: 'To',
  toDate: 'To date',
  datesBackwards: 'From is after To.',
  individual: 'Individual reports',
  chooseOwnedAgain: 'Let me choose reports I own again',
  buyOwnedAgain: 'Buy the {count} I own again',
  tickGroup: 'Tick reports',
  tickAll: 'Tick all',
  tickNone: 'Tick none',
  listLabel: 'Reports',
  listKeys: 'Space ticks a report; the up and down arrows move between reports.',
  chosenColumn: 'Chosen',
  dateColumn: 'Date',
  modelColumn: 'Model',
  postsColumn: 'Posts',
  coversColumn: 'Covers',
  ownedColumn: 'Owned',
  chooseReport: 'Choose report of {day} ({position} of {count})',
  ownedLocked: 'Owned: tick “Let me choose reports I own again” to buy it again',
  owned: 'Owned',
  readReport: 'Read the report of {day} ({position} of {count})',
  read: 'Read',
  notOwned: 'Not owned',
  teamBought: 'Owned · the team’s, bought by {analyst}',
  teamOwned: 'Owned by the team · bought by {analyst}, not in your Library yet',
  teamBuying: 'Being bought by {analyst} (desk {desk}) for the team',
  datesOutOfOrder: 'No price until the dates are in order.',
  ownEvery: 'You already own every report of this handle ({reports}).',
  noneInRange: 'No reports in this range.',
  nothingChosen: 'Nothing chosen.',
  ownAll: 'You own all {reports}{where}.',
  inThisRange: ' in this range',
  youChose: ' you chose',
} as const;

export const menuText = catalogue(MENU_TEXT);
