/**
 * `npm start` itself (scripts/start.ts) on a machine where Electron cannot be fetched: it says it tried,
 * names why it fell back and how to retry, and serves browser mode. A stand-in electron package whose
 * installer fails as it does offline stands in for the real one (INTEL_DESK_ELECTRON_PACKAGE); the rest is
 * the real script against a service URL nobody answers (browsing is not part of this test).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { tempDir } from '../core/helpers';
import { closedPortUrl } from '../closed-port';
import { standInElectron } from './stand-ins';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createDeskCore } from '../../src/core';
import { ACCOUNT_INDEX, anvilDevKey } from '../../src/service/chain/accounts';

const root = path.resolve(__dirname, '../..');
const dirs: ReturnType<typeof tempDir>[] = [];
let child: ChildProcess | null = null;

/** Stops the script started last (with SIGINT, as Ctrl-C does) and waits for it to exit. */
async function stopChild(): Promise<void> {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
  child = null;
}

afterEach(async () => {
  await stopChild();
  for (const dir of dirs.splice(0)) dir.remove();
});

/** Runs npm start's script until it prints `until`, or exits; returns everything it printed. */
function startUntil(args: string[], env: NodeJS.ProcessEnv, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child = spawn(
      process.execPath,
      [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/start.ts', ...args],
      {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const take = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes(until)) resolve(text);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('error', reject);
    child.once('exit', () => resolve(text));
  });
}

describe('npm start without an Electron binary', () => {
  it('tries Electron’s installer, says why it fell back and how to retry, and serves browser mode', async () => {
    const dir = tempDir('desk-start-');
    dirs.push(dir);
    const electron = standInElectron(path.join(dir.dir, 'electron'), 'fails');
    const text = await startUntil(
      ['--service', await closedPortUrl(), '--data-dir', path.join(dir.dir, 'data')],
      { INTEL_DESK_ELECTRON_PACKAGE: electron.dir },
      'Ctrl-C stops everything.',
    );
    expect(text).toContain('[intel-desk] Fetching Electron 45.4.1 with its own installer');
    expect(text).toContain(
      '[intel-desk] Not opening Electron: fetching Electron 45.4.1 failed (exit 1): HTTPError: Response code 404 (Not Found)',
    );
    expect(text).toContain(
      '[intel-desk] To open the desktop window: run `npm start -- --retry-electron` (it needs https://github.com, or ELECTRON_MIRROR)',
    );
    expect(text).not.toMatch(/^\s+at /m);

    // The failure is remembered: the next start does not wait for it again, and says how to try on purpose.
    await stopChild();
    const again = await startUntil(
      ['--service', await closedPortUrl(), '--data-dir', path.join(dir.dir, 'data')],
      { INTEL_DESK_ELECTRON_PACKAGE: electron.dir },
      'Ctrl-C stops everything.',
    );
    expect(again).not.toContain('Fetching Electron');
    expect(again).toMatch(
      /\[intel-desk\] Not opening Electron: fetching Electron 45\.4\.1 failed at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(.*HTTPError.*\), so it was not tried again\./,
    );
    expect(again).toContain('To open the desktop window: run `npm start -- --retry-electron`');
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#token=/);
    const data = path.join(dir.dir, 'data');
    expect(text).toContain(`[intel-desk] Library and wallet: ${data}\n`);
    expect(text).toContain(
      `[intel-desk] The CLI reads this library with --data-dir: npm run desk -- --data-dir ${data} library\n`,
    );
  }, 180_000);
});

describe('npm start on the demo folder after a wallet import replaced the demo wallet', () => {
  it('says what happened and how to go on, then restores the demo wallet with --wallet demo', async () => {
    const dir = tempDir('desk-start-wallet-');
    dirs.push(dir);
    const dataDir = path.join(dir.dir, 'demo');
    const demoAddress = privateKeyToAccount(anvilDevKey(ACCOUNT_INDEX.firstBuyer)).address;
    const other = generatePrivateKey();
    // What Settings → Import a wallet (replace) leaves: the person's wallet, the demo's keystore in backups/.
    const desk = await createDeskCore({
      dataDir,
      serviceUrl: await closedPortUrl(),
      walletKdfCost: 'fast-insecure-for-tests',
    });
    await desk.handlers['wallet.import']({ privateKey: other, passphrase: 'my own wallet passphrase' });
    await desk.close();
    mkdirSync(path.join(dataDir, 'backups'), { recursive: true });
    writeFileSync(path.join(dataDir, 'backups', `wallet-${demoAddress}-20261125T000000000Z.json`), '{}');
    const walletBefore = readFileSync(path.join(dataDir, 'wallet.json'));

    const refused = await startUntil(['--browser', '--data-dir', dataDir], {}, 'Nothing was started.');
    expect(refused).toContain(
      `The demo wallet (${demoAddress}) in ${dataDir} was replaced by an imported one`,
    );
    expect(refused).toContain('npm start -- --wallet imported');
    expect(refused).toContain('npm start -- --wallet demo');
    expect(refused).not.toMatch(/without --data-dir/);
    expect(refused).not.toMatch(/\n\s+at /);
    await new Promise((resolve) => (child?.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    expect(child?.exitCode).not.toBe(0);
    expect(readFileSync(path.join(dataDir, 'wallet.json')).equals(walletBefore)).toBe(true);

    const restored = await startUntil(
      ['--browser', '--data-dir', dataDir, '--wallet', 'demo'],
      {},
      'Ctrl-C stops everything.',
    );
    expect(restored).toContain('Restored the demo wallet');
    expect(restored).toContain('The demo wallet (a funded local-chain key) is imported and unlocked.');
    const kept = readdirSync(path.join(dataDir, 'backups')).filter((name) => name.startsWith('wallet-0x'));
    expect(kept.some((name) => name.includes(privateKeyToAccount(other).address))).toBe(true);
  });
});
