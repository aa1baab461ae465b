/**
 * Core in a worker thread (src/host/core-thread.ts): real core on a real SQLite file in a temp dir, against
 * the reference service and anvil, reached only through messages. The host thread stays free while core
 * derives a key, errors keep their DeskError shape, purchase steps and keychain calls cross as messages,
 * and close() closes the database in the worker and ends the thread.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startStack, type Stack } from '../../src/service/stack';
import { DeskError } from '../../src/core/base/errors';
import type { PurchaseStep, SecretVault } from '../../src/core';
import { startCoreThread, type CoreThread, type CoreThreadOptions } from '../../src/host/core-thread';
import { fromWireError, toWireError } from '../../src/host/core-protocol';
import { PASSPHRASE, tempDir, buyAll } from '../core/helpers';
import { errorCodeFrom } from '../../src/shared/error-codes';

const root = path.resolve(__dirname, '../..');

let stack: Stack;
const dirs: ReturnType<typeof tempDir>[] = [];
const cores: CoreThread[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
});
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()));
});
afterAll(async () => {
  await stack?.stop();
  for (const dir of dirs) dir.remove();
});

function dataDir(): string {
  const dir = tempDir('desk-core-thread-');
  dirs.push(dir);
  return dir.dir;
}

async function coreThread(dir: string, extra: Partial<CoreThreadOptions> = {}): Promise<CoreThread> {
  const core = await startCoreThread({
    core: {
      dataDir: dir,
      serviceUrl: stack.baseUrl,
      rpcUrl: stack.rpcUrl,
      demo: true,
      demoAsset: stack.asset,
      attempts: 1,
    },
    ...extra,
  });
  cores.push(core);
  return core;
}

async function rejection(action: Promise<unknown>): Promise<unknown> {
  try {
    await action;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A keychain held by the host thread: AES under a key that never leaves this thread. */
function hostVault() {
  const key = randomBytes(32);
  const calls: string[] = [];
  const vault: SecretVault = {
    isAvailable: () => {
      calls.push('isAvailable');
      return true;
    },
    encrypt: (plain) => {
      calls.push('encrypt');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt: (data) => {
      calls.push('decrypt');
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
  return { vault, calls };
}

describe('core in a worker thread', () => {
  it('answers the typed handlers and the JSON dispatch of the web host', async () => {
    const core = await coreThread(dataDir());
    const info = await core.handlers['app.info']({});
    expect(info).toMatchObject({ serviceUrl: stack.baseUrl, demo: true, online: true });
    const shelf = await core.handlers['shelf.list']({});
    expect(shelf.entries).toHaveLength(2);

    const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    expect(decode(await core.dispatchJson('menu.get', { handle: shelf.entries[0]!.username }))).toMatchObject(
      {
        ok: true,
        value: { username: shelf.entries[0]!.username, reportCount: 3 },
      },
    );
    expect(decode(await core.dispatchJson('menu.get', {}))).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(decode(await core.dispatchJson('no.such', {}))).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
  });

  it('keeps a DeskError’s code, kind and details across the thread', async () => {
    const core = await coreThread(dataDir());
    await core.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    await core.handlers['wallet.lock']({});
    const wrong = await rejection(core.handlers['wallet.unlock']({ passphrase: 'not the passphrase' }));
    expect(wrong).toBeInstanceOf(DeskError);
    expect(wrong).toMatchObject({ code: 'wrong_passphrase', kind: 'wallet' });
    const missing = await rejection(core.handlers['report.get']({ id: 'rpt_nobody_001' }));
    expect(missing).toMatchObject({ code: 'report_not_owned', kind: 'usage' });

    // Details travel by structured clone, as postMessage does; what cannot be cloned is dropped, not thrown.
    const wire = structuredClone(
      toWireError(new DeskError('payee_changed', 'Payee changed.', 'refused', { pinned: '0xab', n: 2n })),
    );
    expect(fromWireError(wire)).toMatchObject({
      code: 'payee_changed',
      kind: 'refused',
      details: { pinned: '0xab', n: 2n },
    });
    const unclonable = toWireError(
      new DeskError(errorCodeFrom('odd'), 'Odd.', 'internal', { callback: () => undefined }),
    );
    expect(structuredClone(unclonable)).toMatchObject({ code: 'odd', details: {} });
  });

  it('leaves the host thread free while core derives a key', async () => {
    const core = await coreThread(dataDir());
    await core.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    await core.handlers['wallet.lock']({});
    // scrypt (N = 2^15) takes tens of milliseconds; in this thread no timer could fire until it ended.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const status = await core.handlers['wallet.unlock']({ passphrase: PASSPHRASE });
    clearInterval(timer);
    expect(status.unlocked).toBe(true);
    expect(ticks).toBeGreaterThan(0);
  });

  it('sends purchase steps to the host as messages, in order', async () => {
    const steps: PurchaseStep[] = [];
    const core = await coreThread(dataDir());
    core.events.on((event) => {
      if (event.type === 'purchase.step') steps.push(event.step);
    });
    await core.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    const handle = (await core.handlers['shelf.list']({})).entries[0]!.username;
    const { outcome } = await buyAll(core, handle);
    expect(outcome.status).toBe('completed');
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.at(-1)).toBe('completed');
    expect((await core.handlers['library.list']({ handle })).items).toHaveLength(3);
  });

  it('seals with the host’s keychain, which only the host thread holds', async () => {
    const dir = dataDir();
    const { vault, calls } = hostVault();
    const core = await coreThread(dir, { vault });
    await core.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    expect(calls).toContain('encrypt');
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'wallet.json'), 'utf8')) as object)).toEqual([
      'vault',
    ]);
    await core.close();

    const again = await coreThread(dir, { vault });
    await again.handlers['wallet.unlock']({ passphrase: PASSPHRASE });
    expect(calls).toContain('decrypt');
    expect((await again.handlers['wallet.status']({})).unlocked).toBe(true);
  });

  it('closes the database in the worker and ends the thread on close()', async () => {
    const dir = dataDir();
    const core = await coreThread(dir);
    await core.handlers['settings.update']({ dailyCapUnits: '7000000' });
    await core.close();
    // SQLite removes the WAL when its last connection closes cleanly.
    expect(existsSync(path.join(dir, 'desk.db-wal'))).toBe(false);
    const db = new Database(path.join(dir, 'desk.db'), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    db.close();
    expect(await rejection(core.handlers['app.info']({}))).toMatchObject({ code: 'core_stopped' });
    await core.close();
  });

  it('runs from the electron-vite build, where the worker is its own entry (out/main/core-worker.js)', async () => {
    const core = await coreThread(dataDir(), { entry: path.join(root, 'out', 'main', 'core-worker.js') });
    expect((await core.handlers['shelf.list']({})).entries).toHaveLength(2);
    const wrong = await rejection(core.handlers['report.get']({ id: 'rpt_nobody_001' }));
    expect(wrong).toBeInstanceOf(DeskError);
    expect(wrong).toMatchObject({ code: 'report_not_owned', kind: 'usage' });
  });

  it('rejects the start with core’s own error when core cannot open', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, 'a file where the data dir should be');
    const error = await rejection(startCoreThread({ core: { dataDir: file } }));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/EEXIST|ENOTDIR/);
  });
});
