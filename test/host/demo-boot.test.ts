import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { startDeskHost } from '../../src/host/desk-host';
import { buyAll, deskFor, failure, firstHandle, tempDir } from '../core/helpers';
import type { DemoWalletChoice } from '../../src/host/boot';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 },
    buyerCount: 2,
  });
});
afterAll(async () => {
  await stack?.stop();
});

/** npm start's demo on a data folder, as scripts/start.ts runs it in browser mode (--wallet as `choice`). */
function startDemo(dataDir: string, choice?: DemoWalletChoice) {
  return startDeskHost({
    core: { dataDir, demo: true, serviceUrl: stack.baseUrl, rpcUrl: stack.rpcUrl, demoAsset: stack.asset },
    rendererDir: path.join(dataDir, 'no-renderer'),
    demoKey: stack.buyerKeys[0]!,
    ...(choice ? { demoWallet: choice } : {}),
  });
}

/** A real desk's folder: a wallet under the person's own passphrase and a service of their own. */
async function realDesk(dataDir: string, key: `0x${string}`): Promise<void> {
  const desk = await deskFor(stack, dataDir, { serviceUrl: 'https://reports.example.com' });
  await desk.handlers['wallet.import']({ privateKey: key, passphrase: 'my own wallet passphrase' });
  await desk.close();
}

describe('the demo on a folder that holds a wallet', () => {
  it("refuses a real desk's folder and leaves its wallet and database byte-identical", async () => {
    const data = tempDir('desk-demo-boot-');
    try {
      await realDesk(data.dir, stack.buyerKeys[1]!);
      const before = Object.fromEntries(
        readdirSync(data.dir).map((f) => [f, readFileSync(path.join(data.dir, f))]),
      );
      const error = await failure(startDemo(data.dir));
      expect(error.code).toBe('foreign_wallet');
      expect(error.message).toContain(data.dir);
      expect(error.message).toContain(privateKeyToAccount(stack.buyerKeys[1]!).address);
      expect(error.message).toMatch(/nothing was changed/);
      for (const [file, bytes] of Object.entries(before))
        expect(readFileSync(path.join(data.dir, file)).equals(bytes)).toBe(true);
    } finally {
      data.remove();
    }
  });

  it('keeps the demo key sealed under a passphrase of the person’s own', async () => {
    const data = tempDir('desk-demo-boot-');
    try {
      await realDesk(data.dir, stack.buyerKeys[0]!);
      const wallet = readFileSync(path.join(data.dir, 'wallet.json'));
      const error = await failure(startDemo(data.dir));
      expect(error.code).toBe('foreign_wallet');
      expect(readFileSync(path.join(data.dir, 'wallet.json')).equals(wallet)).toBe(true);
    } finally {
      data.remove();
    }
  });

  it('sets up its own wallet in an empty folder and opens it again on the next start', async () => {
    const data = tempDir('desk-demo-boot-');
    try {
      const first = await startDemo(data.dir);
      const status = await first.core.handlers['wallet.status']({});
      expect(status).toMatchObject({
        kind: 'keystore',
        unlocked: true,
        address: privateKeyToAccount(stack.buyerKeys[0]!).address,
      });
      await first.close();
      const wallet = readFileSync(path.join(data.dir, 'wallet.json'));
      const again = await startDemo(data.dir);
      expect(await again.core.handlers['wallet.status']({})).toMatchObject({ unlocked: true });
      await again.close();
      expect(readFileSync(path.join(data.dir, 'wallet.json')).equals(wallet)).toBe(true);
    } finally {
      data.remove();
    }
  });

  it('on its own folder after a wallet import, says so and goes on with either wallet, keeping the library', async () => {
    const data = tempDir('desk-demo-boot-');
    try {
      const demo = privateKeyToAccount(stack.buyerKeys[0]!).address;
      const imported = privateKeyToAccount(stack.buyerKeys[1]!).address;
      const first = await startDemo(data.dir);
      const { outcome } = await buyAll(first.core, (await firstHandle(stack)).handle);
      expect(outcome.status).toBe('completed');
      // Settings → Import a wallet, and the person chose to replace the demo's.
      await first.core.handlers['wallet.import']({
        privateKey: stack.buyerKeys[1]!,
        passphrase: 'my own wallet passphrase',
        replace: true,
      });
      await first.close();

      const refused = await failure(startDemo(data.dir));
      expect(refused.code).toBe('foreign_wallet');
      expect(refused.message).toContain(
        `The demo wallet (${demo}) in ${data.dir} was replaced by an imported one`,
      );
      expect(refused.message).toContain(imported);
      expect(refused.message).toMatch(/the library is untouched/);
      expect(refused.message).toContain('npm start -- --wallet imported');
      expect(refused.message).toContain('npm start -- --wallet demo');
      expect(refused.message).not.toMatch(/without --data-dir/);

      const keptImported = await startDemo(data.dir, 'imported');
      expect(await keptImported.core.handlers['wallet.status']({})).toMatchObject({
        address: imported,
        unlocked: false,
      });
      expect((await keptImported.core.handlers['library.list']({})).items).toHaveLength(1);
      await keptImported.close();

      const restored = await startDemo(data.dir, 'demo');
      expect(await restored.core.handlers['wallet.status']({})).toMatchObject({
        address: demo,
        unlocked: true,
      });
      expect((await restored.core.handlers['library.list']({})).items).toHaveLength(1);
      await restored.close();
      const kept = readdirSync(path.join(data.dir, 'backups')).filter((f) => f.startsWith('wallet-'));
      expect(kept.some((name) => name.includes(imported))).toBe(true);
      expect(kept.some((name) => name.includes(demo))).toBe(true);
    } finally {
      data.remove();
    }
  });
});
