/**
 * The Settings screen's words (Settings.tsx): the service, WalletConnect, the library secret, the theme and
 * the cards' titles. The caps are in caps.ts, the budgets in budgets.ts, the other cards in settings-*.ts.
 */
import { catalogue } from './catalogue';

export const SETTINGS_TEXT = {
  title: 'Settings',
  serviceTitle: 'Service',
  serviceUrl: 'Service URL',
  serviceUrlWrong:
    'The service URL must start with http:// or https:// (for example https://reports.example.com).',
  useService: 'Use this service',
  saved: 'Saved.',
  walletTitle: 'Wallet',
  walletConnectTitle: 'WalletConnect',
  projectId: 'Project id',
  projectIdLabel: 'WalletConnect project id',
  saveProjectId: 'Save project id',
  remove: 'Remove',
  walletConnectExplain:
    'Pair a phone or hardware wallet through the WalletConnect relay. It needs a project id from WalletConnect Cloud; without one, Intel Desk never contacts the relay.',
  secretTitle: 'Library secret',
  secretSetFor: 'Set for {origin}',
  secretNotSet: 'Not set',
  secretAccepted: ' · accepted by the service',
  secretRefused:
    ' · refused by the service, so it is not used and you buy as usual; enter it again if it changed',
  secretStoredElsewhere: ' for this service (one is stored for {origin} and is only ever sent there)',
  secretExplain:
    "What it changes: Dossiers open, and each menu's price panel offers to read reports with it, free, beside Buy (buying still works as before). Sent only to the service it is entered for, over https or to this computer. Changing the service URL never carries it along.",
  secret: 'Secret',
  secretLabel: 'Library secret',
  saveSecret: 'Save secret',
  forgetSecret: 'Forget secret',
  useDemoSecret: 'Use the demo secret',
  demoSecretPublic:
    "The demo service's secret is public (npm start prints it); Intel Desk uses it without showing it here.",
  themeTitle: 'Theme',
  themeSystem: 'system',
  themeLight: 'light',
  themeDark: 'dark',
} as const;

export const settingsText = catalogue(SETTINGS_TEXT);
