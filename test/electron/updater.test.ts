/**
 * electron/updater.ts with electron-updater itself (its DebUpdater, GenericProvider, download cache and the
 * sha512 check of builder-util-runtime's HttpExecutor) against a local feed on loopback, under the stand-in
 * Electron. The one part replaced is the transport: Node's http (builder-util's NodeHttpExecutor) instead of
 * Electron's net, which needs the Electron binary; both are the same HttpExecutor, and verify the same way.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeDownloadExecutor } from './node-download-executor';
import { openRotatingLog, type ShellLog } from '../../electron/logs';
import type { AutoUpdateOptions } from '../../electron/updater';
import type { FakeElectron } from './launch';

vi.mock('electron', () => import('./fake-electron'));

const ARTIFACT = 'intel-desk-9.9.9-amd64.deb';
const artifact = Buffer.from('the 9.9.9 package, as published');
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** latest.yml as electron-builder publishes it, for the bytes it claims. */
function latestYml(claimed: Buffer): string {
  return [
    'version: 9.9.9',
    'files:',
    `  - url: ${ARTIFACT}`,
    `    sha512: ${sha512(claimed)}`,
    `    size: ${claimed.length}`,
    `path: ${ARTIFACT}`,
    `sha512: ${sha512(claimed)}`,
    "releaseDate: '2026-11-25T00:00:00.000Z'",
    '',
  ].join('\n');
}

/** A feed folder on loopback: the channel file under each platform's name, and the artifact. */
async function serveFeed(files: Record<string, string | Buffer>): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://feed').pathname.slice(1);
    const body = files[name];
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

const feedFiles = (yml: string) => ({ 'latest.yml': yml, 'latest-linux.yml': yml, 'latest-mac.yml': yml });

let root: string;
let electron: FakeElectron;
let log: ShellLog;
let server: Server | null = null;
const stops: (() => void)[] = [];

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'desk-updater-'));
  vi.resetModules();
  electron = (await import('electron')) as unknown as FakeElectron;
  electron.reset();
  electron.app.isPackaged = true;
  electron.app.appPath = path.join(root, 'app');
  mkdirSync(electron.app.appPath, { recursive: true });
  electron.app.setPath('userData', path.join(root, 'profile'));
  vi.stubEnv('APPIMAGE', undefined);
  log = openRotatingLog({ dir: path.join(root, 'logs'), echo: () => undefined });
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

async function start(feedUrl: string | null, extra: Partial<AutoUpdateOptions> = {}) {
  const { prepareUpdates } = await import('../../electron/updater');
  const installs: unknown[] = [];
  const updates = prepareUpdates({
    log,
    off: null,
    feedUrl,
    executor: new NodeDownloadExecutor(),
    window: () => null,
    install: (updater) => installs.push(updater),
    installOnQuit: false,
    schedule: (_check, everyMs) => {
      scheduled.push(everyMs);
      return () => undefined;
    },
    ...extra,
  });
  stops.push(updates.stop);
  return { updates, installs };
}
const scheduled: number[] = [];
const logText = () => readFileSync(log.file, 'utf8');
const pending = () => path.join(root, 'profile', 'update-cache', 'intel-desk-updater', 'pending');

describe.runIf(process.platform === 'linux')('automatic updates', () => {
  it('find an update on the feed, download it, verify its sha512 and offer Restart to Update', async () => {
    ({ server } = await serveFeed({ ...feedFiles(latestYml(artifact)), [ARTIFACT]: artifact }));
    const feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    scheduled.length = 0;
    const { updates, installs } = await start(feed);
    updates.start();
    await updates.check();
    await vi.waitFor(() => expect(electron.dialog.messageBoxes).toHaveLength(1));
    expect(electron.dialog.messageBoxes[0]).toMatchObject({
      message: 'Intel Desk 9.9.9 is ready to install.',
      buttons: ['Restart to Update', 'Later'],
    });
    // The person chose Restart to Update (the stand-in's boxes answer with the first button).
    await vi.waitFor(() => expect(installs).toHaveLength(1));
    expect(readFileSync(path.join(pending(), ARTIFACT))).toEqual(artifact);
    expect(logText()).toContain('Updates: Intel Desk 9.9.9 is downloaded and verified (sha512).');
    expect(scheduled).toEqual([24 * 60 * 60 * 1000]);
    expect(electron.dialog.errorBoxes).toEqual([]);
  });

  it('refuse an artifact whose bytes are not the ones latest.yml vouches for', async () => {
    const tampered = Buffer.from('the 9.9.9 package, with something added');
    ({ server } = await serveFeed({ ...feedFiles(latestYml(artifact)), [ARTIFACT]: tampered }));
    const { updates, installs } = await start(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await updates.check();
    expect(logText()).toMatch(/sha512 checksum mismatch/);
    expect(electron.dialog.messageBoxes).toEqual([]);
    expect(installs).toEqual([]);
    const kept = existsSync(pending()) ? readdirSync(pending()) : [];
    expect(kept).not.toContain(ARTIFACT);
    expect(electron.dialog.errorBoxes).toEqual([]);
  });

  it('say nothing but a log line when the feed has nothing, or there is no feed', async () => {
    ({ server } = await serveFeed({}));
    const { updates } = await start(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await updates.check();
    expect(logText()).toMatch(/error Updates: .*latest-linux\.yml/);
    const none = await start(null);
    none.updates.start();
    await none.updates.check();
    expect(logText()).toContain('Updates: this copy names no update feed, so it does not look for updates.');
    expect(electron.dialog.messageBoxes).toEqual([]);
    expect(electron.dialog.errorBoxes).toEqual([]);
  });

  it('say nothing when the feed’s version is the one running', async () => {
    const same = latestYml(artifact).replace('version: 9.9.9', 'version: 0.1.0');
    ({ server } = await serveFeed({ ...feedFiles(same), [ARTIFACT]: artifact }));
    const { updates } = await start(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await updates.check();
    expect(logText()).toMatch(/Update for version 0\.1\.0 is not available/);
    expect(electron.dialog.messageBoxes).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('Help → Check for Updates', () => {
  const feedAt = () => `http://127.0.0.1:${(server?.address() as AddressInfo).port}/`;
  const boxes = () => electron.dialog.messageBoxes.map((box) => box['message']);

  it('says the copy is up to date when the feed’s version is the one running', async () => {
    const same = latestYml(artifact).replace('version: 9.9.9', 'version: 0.1.0');
    ({ server } = await serveFeed({ ...feedFiles(same), [ARTIFACT]: artifact }));
    const { updates } = await start(feedAt());
    await expect(updates.checkNow()).resolves.toEqual({ kind: 'up-to-date' });
    expect(electron.dialog.messageBoxes).toEqual([
      expect.objectContaining({ type: 'info', message: 'Intel Desk 0.1.0 is up to date.', buttons: ['OK'] }),
    ]);
  });

  it('says a newer version is downloading, then offers it, and offers it again when asked again', async () => {
    ({ server } = await serveFeed({ ...feedFiles(latestYml(artifact)), [ARTIFACT]: artifact }));
    electron.fake.messageBoxResponse = 1; // Later
    const { updates, installs } = await start(feedAt());
    await expect(updates.checkNow()).resolves.toEqual({ kind: 'downloading', version: '9.9.9' });
    await vi.waitFor(() => expect(boxes()).toContain('Intel Desk 9.9.9 is ready to install.'));
    expect(boxes()).toContain('Intel Desk 9.9.9 is available.');
    expect(installs).toEqual([]);

    electron.fake.messageBoxResponse = 0; // Restart to Update
    await expect(updates.checkNow()).resolves.toEqual({ kind: 'ready', version: '9.9.9' });
    expect(electron.dialog.messageBoxes.at(-1)).toMatchObject({ buttons: ['Restart to Update', 'Later'] });
    expect(installs).toHaveLength(1);
  });

  it('says the check failed, and why, when the feed has no channel file', async () => {
    ({ server } = await serveFeed({}));
    const { updates } = await start(feedAt());
    const answer = await updates.checkNow();
    expect(answer).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/latest-linux\.yml/) });
    const [box] = electron.dialog.messageBoxes;
    expect(box).toMatchObject({ type: 'warning', message: 'Intel Desk could not check for updates.' });
    expect(String(box?.['detail'])).toContain('Nothing was downloaded or changed.');
    expect(String(box?.['detail']).split('\n\n')[0]?.length).toBeLessThanOrEqual(300);
  });

  it('says so when the update it announced fails its sha512 check', async () => {
    const tampered = Buffer.from('the 9.9.9 package, with something added');
    ({ server } = await serveFeed({ ...feedFiles(latestYml(artifact)), [ARTIFACT]: tampered }));
    const { updates, installs } = await start(feedAt());
    await expect(updates.checkNow()).resolves.toEqual({ kind: 'downloading', version: '9.9.9' });
    await vi.waitFor(() => expect(boxes()).toContain('Intel Desk 9.9.9 could not be downloaded.'));
    expect(String(electron.dialog.messageBoxes.at(-1)?.['detail'])).toMatch(/sha512 checksum mismatch/);
    expect(installs).toEqual([]);
  });

  it('says a copy without a feed cannot look, and a checkout or the demo does not', async () => {
    const none = await start(null);
    await expect(none.updates.checkNow()).resolves.toEqual({ kind: 'no-feed' });
    const checkout = await start('http://127.0.0.1:9/', { off: 'development' });
    await expect(checkout.updates.checkNow()).resolves.toEqual({ kind: 'off', why: 'development' });
    const demo = await start('http://127.0.0.1:9/', { off: 'demo' });
    await expect(demo.updates.checkNow()).resolves.toEqual({ kind: 'off', why: 'demo' });
    expect(boxes()).toEqual([
      'This copy of Intel Desk cannot look for updates.',
      'Updates are off in a copy run from a checkout.',
      'Updates are off in the demo.',
    ]);
  });
});
