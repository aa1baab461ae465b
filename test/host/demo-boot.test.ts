import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { startDeskHost } from '../../src/host/desk-host';
import { deskFor, failure, tempDir } from '../core/helpers';

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

/** npm start's demo on a data folder, as scripts/start.ts runs it in browser mode. */
function startDemo(dataDir: string) {
  return startDeskHost({
    core: { dataDir, demo: true, serviceUrl: stack.baseUrl, rpcUrl: stack.rpcUrl },
    rendererDir: path.join(dataDir, 'no-renderer'),
    demoKey: stack.buyerKeys[0]!,
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
      expect(error.message).toMatch(/left untouched/);
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
});
