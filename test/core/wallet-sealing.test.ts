/**
 * The wallet file against an offline guess: the default scrypt cost, the passphrase rule, the address bound
 * as associated data, the upgrade of version 1 files on unlock, and an event loop that keeps turning while a
 * key is derived. Files are real, in a temp dir per test; no service is needed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { privateKeyToAccount } from 'viem/accounts';
import { createDeskCore, type DeskCore } from '../../src/core';
import { PASSPHRASE, failure, legacyWalletFile, tempDir } from './helpers';
import { closedPortUrl } from '../closed-port';

// Well-known anvil test keys (accounts 0 and 1).
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const OTHER = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function desk(options: { fast?: boolean } = {}): Promise<{ desk: DeskCore; file: string }> {
  const data = tempDir('desk-sealing-');
  cleanups.push(() => data.remove());
  // An unreachable service: nothing here needs one, and starting never waits on it.
  const core = await createDeskCore({
    dataDir: data.dir,
    serviceUrl: await closedPortUrl(),
    ...(options.fast ? { walletKdfCost: 'fast-insecure-for-tests' as const } : {}),
  });
  cleanups.push(() => core.close());
  return { desk: core, file: path.join(data.dir, 'wallet.json') };
}

const stored = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as { version: number; address: string; sealed: { n?: number } };

describe('a version 1 wallet file (scrypt N=2^15, no associated data)', () => {
  it('is upgraded to the default cost on unlock, without stalling the event loop, and unlocks afterwards', async () => {
    const { desk: core, file } = await desk();
    writeFileSync(file, legacyWalletFile(KEY, PASSPHRASE), { mode: 0o600 });

    // monitorEventLoopDelay samples only when the loop turns, so a loop blocked throughout records nothing;
    // the widest gap between timer ticks (and from the last one to the end) catches that case too.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    let ticks = 0;
    let last = performance.now();
    let widestGapMs = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      widestGapMs = Math.max(widestGapMs, now - last);
      last = now;
      ticks += 1;
    }, 5);
    delay.enable();
    const started = performance.now();
    const status = await core.handlers['wallet.unlock']({ passphrase: PASSPHRASE });
    const elapsed = performance.now() - started;
    widestGapMs = Math.max(widestGapMs, performance.now() - last);
    delay.disable();
    clearInterval(ticker);
    const longestStallMs = delay.max / 1e6;
    console.log(
      `bench: unlock + upgrade to scrypt N=2^17 took ${elapsed.toFixed(0)} ms; longest event-loop stall ${longestStallMs.toFixed(1)} ms (monitorEventLoopDelay), widest gap between 5 ms ticks ${widestGapMs.toFixed(1)} ms; ${ticks} ticks`,
    );

    expect(status).toMatchObject({
      kind: 'keystore',
      address: privateKeyToAccount(KEY).address,
      unlocked: true,
    });
    // Two derivations (N=2^15 to open, N=2^17 to reseal) ran off the main thread: timers kept firing.
    expect(ticks).toBeGreaterThanOrEqual(5);
    expect(widestGapMs).toBeLessThan(elapsed / 2);
    expect(longestStallMs).toBeLessThan(elapsed / 2);
    const upgraded = stored(file);
    expect(upgraded).toMatchObject({ version: 2, address: privateKeyToAccount(KEY).address });
    expect(upgraded.sealed.n).toBe(1 << 17);
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);

    await core.handlers['wallet.lock']({});
    expect((await core.handlers['wallet.unlock']({ passphrase: PASSPHRASE })).unlocked).toBe(true);
    expect(stored(file).sealed.n).toBe(1 << 17);
  });

  it('stays whole and still unlocks when the upgrade cannot be written, and is upgraded on a later unlock', async () => {
    const { desk: core, file } = await desk({ fast: true });
    const legacy = legacyWalletFile(KEY, PASSPHRASE);
    writeFileSync(file, legacy, { mode: 0o600 });
    // The temp file's name taken by a folder: the write of the new file fails midway, before any rename.
    const blocker = `${file}.${process.pid}.tmp`;
    mkdirSync(blocker);
    expect((await core.handlers['wallet.unlock']({ passphrase: PASSPHRASE })).unlocked).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(legacy);

    rmdirSync(blocker);
    await core.handlers['wallet.lock']({});
    expect((await core.handlers['wallet.unlock']({ passphrase: PASSPHRASE })).unlocked).toBe(true);
    expect(stored(file).version).toBe(2);
  });

  it('is refused when its address was changed to another one', async () => {
    const { desk: core, file } = await desk({ fast: true });
    const legacy = JSON.parse(legacyWalletFile(KEY, PASSPHRASE)) as { address: string };
    legacy.address = privateKeyToAccount(OTHER).address;
    writeFileSync(file, JSON.stringify(legacy), { mode: 0o600 });
    const error = await failure(core.handlers['wallet.unlock']({ passphrase: PASSPHRASE }));
    expect(error.code).toBe('wallet_file_altered');
    expect(stored(file).version).toBe(1);
  });
});

describe('a new wallet file', () => {
  it('binds the address: a file whose address was edited does not unlock', async () => {
    const { desk: core, file } = await desk({ fast: true });
    await core.handlers['wallet.import']({ privateKey: KEY, passphrase: PASSPHRASE });
    const record = stored(file);
    expect(record.version).toBe(2);
    writeFileSync(file, JSON.stringify({ ...record, address: privateKeyToAccount(OTHER).address }));
    await core.handlers['wallet.lock']({});
    const error = await failure(core.handlers['wallet.unlock']({ passphrase: PASSPHRASE }));
    expect(error.code).toBe('wrong_passphrase');
    expect(error.message).toContain('address in wallet.json was changed');
  });

  it.each([
    ['abcd', /4 characters, fewer than 12/],
    ['desk pass', /9 characters, fewer than 12/],
    ['passwordpassword', /fall within 10 guesses \(repeated/],
    ['aaaaaaaaaaaaaaaa', /fall in about 100 guesses \(repeated characters/],
    ['qwertyuiopasdf', /fall in about 10,000 guesses/],
    ['12345678901234', /fall in about 10,000 guesses/],
  ])(
    'refuses the weak passphrase %j, says why and what would pass, and writes nothing',
    async (weak, why) => {
      const { desk: core, file } = await desk({ fast: true });
      const error = await failure(core.handlers['wallet.import']({ privateKey: KEY, passphrase: weak }));
      expect(error.code).toBe('weak_passphrase');
      expect(error.message).toMatch(why);
      expect(error.message).toContain('Use at least 12 characters');
      expect(existsSync(file)).toBe(false);
    },
  );
});
