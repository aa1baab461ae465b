/** The app shell's words: the header, its status badges and notices (App.tsx) and the welcome (Welcome.tsx). */
import { catalogue } from './catalogue';

export const APP_TEXT = {
  brand: 'Intel Desk',
  mainNav: 'Main',
  navShelf: 'Shelf',
  navLibrary: 'Library',
  navPurchases: 'Purchases',
  navDossiers: 'Dossiers',
  navSettings: 'Settings',
  help: 'Help',
  demoTitle: 'Local service and test chain; nothing costs real money',
  demo: 'demo',
  hostDownTitle: 'This page cannot reach Intel Desk itself: start it again (npm start).',
  hostDown: 'desk unreachable',
  online: 'online',
  offline: 'offline',
  pending: '…',
  desktop: 'desktop',
  browser: 'browser',
  report: 'report',
  reports: 'reports',
  databaseRecovered:
    'The local database could not be used ({reason}); it was moved to {path}{outcome} Settings → Library → Restore purchases brings back from the service what the wallet bought and the library now lacks.',
  databaseRestored:
    ', and the newest good backup (taken {when}) was restored: {reports} came back. Anything bought after that backup is not in it.',
  databaseNew: ' and a new one was started.',
  libraryDamaged:
    'The library file is damaged ({reason}). Quit and start Intel Desk again: the file is then set aside and replaced by the newest good backup, and Settings → Library → Restore purchases brings back from the service what that backup lacks.',
  opening: 'Opening…',
  welcomeTitle: 'Welcome to Intel Desk',
  the: 'The ',
  demoBadgeMeans:
    ' badge means everything runs on this computer: a local copy of the report service and a local test chain (chain id 31337), not Base. Nothing here costs real money.',
  demoWallet:
    'The wallet is a test key funded with test USDC on that local chain, ready to pay. Its balance is under Settings → Wallet.',
  startOnThe: 'Start on the ',
  shelf: 'Shelf',
  library: 'Library',
  dossiers: 'Dossiers',
  settingsWallet: 'Settings → Wallet',
  demoStart: ': open a handle, choose reports in its menu and buy them. What you own is in the ',
  demoOwned: ", readable offline and exportable. The demo's own library secret is offered in Settings, for ",
  demoSecret: '; with it set, menus also offer to read reports free, beside Buy.',
  start:
    ': open a handle, see the live price of its reports, and buy them with USDC. Set up a wallet first under ',
  sentenceEnd: '.',
  ownedIn: 'What you own is in the ',
  ownedEnd: ', readable offline, searchable and exportable.',
  searchTakes: 'The Library\'s search takes words, "phrases", ',
  comma: ', ',
  searchMore: ' and more: press ',
  or: ' or ',
  seeSyntax: 'see the search syntax',
  startOnShelf: 'Start on the Shelf',
  close: 'Close',
} as const;

export const appText = catalogue(APP_TEXT);
