/**
 * npm start: build if needed, start the demo (local chain + reference service) unless --service points at a
 * real one, then open Electron when its binary exists, or else serve the app to a browser on loopback.
 *   npm start                        demo, data in .data/demo (its service and chain in demo-service/, kept)
 *   npm start -- --service <url>     a real service, data in .data/desk
 *   npm start -- --data-dir <dir>    another data dir
 *   npm start -- --wallet imported   the demo on a folder whose wallet was replaced by an import: use that one
 *   npm start -- --wallet demo       … or restore the demo wallet (the imported keystore is kept in backups/)
 *   npm start -- --retry-electron    fetch Electron again after a failed fetch (which is otherwise remembered)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Stack } from '../src/service/stack';
import { startDemoStack } from '../src/service/demo-stack';
import { ACCOUNT_INDEX, anvilDevKey } from '../src/service/chain/accounts';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { checkDemoDataDir, type DemoWalletChoice } from '../src/host/boot';
import { DeskError } from '../src/core/base/errors';
import { encryptedOrLocal } from '../src/shared/transport';
import { createInterface } from 'node:readline/promises';
import { buildIfStale } from './build-if-stale';
import { prepareElectron, type PreparedElectron } from './electron-prepare';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => console.log(`[intel-desk] ${line}`);

const { values } = parseArgs({
  options: {
    service: { type: 'string' },
    'data-dir': { type: 'string' },
    port: { type: 'string' },
    browser: { type: 'boolean', default: false },
    wallet: { type: 'string' },
    'retry-electron': { type: 'boolean', default: false },
  },
});
const serviceUrl =
  values.service === undefined
    ? undefined
    : z
        .url({ protocol: /^https?$/ })
        .refine(encryptedOrLocal, '--service must be https (http only on this computer)')
        .parse(values.service);
const walletChoice = z
  .enum(['imported', 'demo'], { error: '--wallet is "imported" or "demo"' })
  .optional()
  .parse(values.wallet);
const port = values.port === undefined ? 0 : z.coerce.number().int().min(0).max(65535).parse(values.port);
const demo = serviceUrl === undefined;
const dataDir = path.resolve(values['data-dir'] ?? path.join(root, '.data', demo ? 'demo' : 'desk'));

let stack: Stack | null = null;
let desk: DeskHost | null = null;
let electron: ChildProcess | null = null;
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log('Stopping…');
    if (electron && electron.exitCode === null) electron.kill('SIGTERM');
    await desk?.close().catch((error: unknown) => console.error(error));
    await stack?.stop().catch((error: unknown) => console.error(error));
  }
  process.exit(code);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

async function main(): Promise<void> {
  await buildIfStale(root, log);
  let rpcUrl: string | undefined;
  let demoKey: `0x${string}` | undefined;
  let demoLibrarySecret: string | undefined;
  let demoAsset: `0x${string}` | undefined;
  let service = serviceUrl;
  let choice: DemoWalletChoice | undefined;
  if (demo) {
    // The folder's wallet is checked before the demo keeps its service in it: a refused folder stays as it was.
    demoKey = anvilDevKey(ACCOUNT_INDEX.firstBuyer);
    choice = await demoWallet(demoKey);
    log('Starting the demo: a local chain (anvil) and the reference service…');
    const started = await startDemoStack(path.join(dataDir, 'demo-service'), { log: () => undefined });
    stack = started;
    for (const change of started.changes) log(change);
    service = stack.baseUrl;
    rpcUrl = stack.rpcUrl;
    // The demo service's own secret, public by design: printed, and offered in Settings without crossing
    // to the renderer.
    demoLibrarySecret = stack.librarySecret;
    demoAsset = stack.asset;
    log(`Demo service ${stack.baseUrl}, chain ${stack.network} at ${stack.rpcUrl}`);
    log(`Demo library secret (for Dossiers; or Settings → Use the demo secret): ${demoLibrarySecret}`);
  }

  // The CLI opens the installed app's library (or ~/.intel-desk) unless told otherwise: say where this one is and
  // how to reach it.
  log(`Library and wallet: ${dataDir}`);
  log(`The CLI reads this library with --data-dir: npm run desk -- --data-dir ${shellWord(dataDir)} library`);

  const prepared: PreparedElectron = values.browser
    ? { ready: false, reason: '--browser was given', retry: 'leave out --browser' }
    : await prepareElectron({ root, log, retry: values['retry-electron'] });
  if (prepared.ready) {
    log(`Opening Electron (${prepared.binary})`);
    electron = spawn(prepared.binary, [root], {
      stdio: 'inherit',
      env: {
        ...process.env,
        INTEL_DESK_DATA_DIR: dataDir,
        INTEL_DESK_DEMO: demo ? '1' : '0',
        ...(service ? { INTEL_DESK_SERVICE_URL: service } : {}),
        ...(rpcUrl ? { INTEL_DESK_RPC_URL: rpcUrl } : {}),
        ...(demoKey ? { INTEL_DESK_DEMO_KEY: demoKey } : {}),
        ...(demoLibrarySecret ? { INTEL_DESK_DEMO_LIBRARY_SECRET: demoLibrarySecret } : {}),
        INTEL_DESK_NATIVE_BINDING: prepared.nativeBinding,
        ...(demoAsset ? { INTEL_DESK_DEMO_ASSET: demoAsset } : {}),
        ...(choice ? { INTEL_DESK_DEMO_WALLET: choice } : {}),
      },
    });
    electron.once('exit', (code) => void stop(code ?? 0));
    return;
  }

  desk = await startDeskHost({
    core: {
      dataDir,
      demo,
      ...(service ? { serviceUrl: service } : {}),
      ...(rpcUrl ? { rpcUrl } : {}),
      ...(demoLibrarySecret ? { demoLibrarySecret } : {}),
      ...(demoAsset ? { demoAsset } : {}),
      cliLauncher: { command: process.execPath, args: [path.join(root, 'bin', 'intel-desk.mjs')] },
    },
    rendererDir: path.join(root, 'out', 'renderer'),
    port,
    ...(demoKey ? { demoKey } : {}),
    ...(choice ? { demoWallet: choice } : {}),
  });
  log(`Not opening Electron: ${prepared.reason}. Running in browser mode instead.`);
  if (!values.browser) log(`To open the desktop window: ${prepared.retry}.`);
  if (demo && choice === 'imported')
    log('The imported wallet is kept: unlock it with its passphrase in Settings to buy with it.');
  else if (demo) log('The demo wallet (a funded local-chain key) is imported and unlocked.');
  log('Open this address in a browser (it carries this run’s access token):');
  console.log(`\n  ${desk.host.url}\n`);
  log('Ctrl-C stops everything.');
}

/** A path as one shell word: quoted when it holds anything a shell would split or expand. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The demo's folder holding a wallet that is not the demo's (an import replaced it): say what happened and
 * go on the way the person chooses (--wallet, or asked here on a terminal), never losing the library.
 */
async function demoWallet(demoKey: `0x${string}`): Promise<DemoWalletChoice | undefined> {
  try {
    const found = checkDemoDataDir(dataDir, demoKey, undefined, walletChoice);
    if (found === 'restored demo')
      log(
        'Restored the demo wallet; the imported keystore is kept in the backups folder of the data folder.',
      );
    if (found === 'kept imported')
      log('Using the imported wallet in this folder, as asked (--wallet imported).');
    return walletChoice;
  } catch (error) {
    if (!(error instanceof DeskError) || error.code !== 'foreign_wallet') throw error;
    // A wallet sealed by the OS keychain cannot be read here: the window, which has the keychain, decides.
    if (/OS keychain/.test(error.message)) return walletChoice;
    log(error.message);
    if (!process.stdin.isTTY) throw new DeskError('foreign_wallet', 'Nothing was started.', 'wallet');
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    try {
      for (;;) {
        const answer = (
          await prompt.question(
            '[intel-desk] Use the imported wallet (i), restore the demo wallet (d), or quit (q)? ',
          )
        )
          .trim()
          .toLowerCase();
        if (answer === 'q' || answer === '')
          throw new DeskError('foreign_wallet', 'Nothing was started.', 'wallet');
        if (answer === 'i' || answer === 'd') {
          const chosen: DemoWalletChoice = answer === 'i' ? 'imported' : 'demo';
          checkDemoDataDir(dataDir, demoKey, undefined, chosen);
          log(
            chosen === 'demo'
              ? 'Restored the demo wallet; the imported keystore is kept in the backups folder of the data folder.'
              : 'Using the imported wallet in this folder.',
          );
          return chosen;
        }
      }
    } finally {
      prompt.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  void stop(1);
});
