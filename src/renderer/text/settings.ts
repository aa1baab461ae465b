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
  lockAfter: 'Lock the wallet after (minutes unused)',
  saveLockTime: 'Save lock time',
  lockExplain:
    'It also locks when the computer locks its screen or sleeps. The next purchase asks for the passphrase.',
  lockDemo:
    'Off in the demo: the demo unlocks its own test wallet, so it stays unlocked. The time saved here applies when Intel Desk runs without the demo.',
  chainTitle: 'Chain RPC',
  rpcUrl: 'RPC URL',
  chainRpcUrl: 'Chain RPC URL',
  rpcPlaceholder: 'https://…',
  useRpc: 'Use this RPC',
  useDefault: 'Use the default',
  chainExplain:
    'After a payment leaves, the chain decides whether money moved. Base and Base Sepolia have public endpoints; a private one is faster and more reliable.',
  inUse: 'In use{network}: ',
  inUseNetwork: ' for {network}',
  inUseSource: ' ({source})',
  plainHttp:
    '. It is plain http to another host, so it is not used and no payment is made: choose an https RPC, or use the default.',
  inUseNone: 'In use: none yet (chosen by the network of the first quote).',
  sourceRun: 'given for this run',
  sourceSettings: 'chosen here',
  sourceDefault: "the network's public endpoint",
  demoHintStart: 'This demo has its own library secret: in',
  demoHintSettings: 'Settings',
  demoHintPath: '→ Library secret, choose ',
  sentenceEnd: '.',
  assistantTitle: 'Use with an AI assistant',
  assistantExplain:
    'An assistant that speaks MCP (Claude Desktop, others) can search, read and price the reports of this library. It buys nothing itself: what it asks for waits for your approval under Purchases.',
  assistantAdd:
    "Add this to the client's configuration (Claude Desktop: Settings → Developer → Edit Config, claude_desktop_config.json; other clients: their mcpServers entry), then restart the client.",
  copyConfig: 'Copy the assistant configuration',
  readsLibrary: 'It reads the library in {dir}.',
  onPath: ' The command intel-desk must be on this computer’s PATH (README: Command line).',
} as const;

export const settingsText = catalogue(SETTINGS_TEXT);
