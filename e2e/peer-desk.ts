/**
 * A desk on a service and chain the test brings (an interop peer on Base Sepolia), not the reference stack:
 * core NON-demo with this run's service and chain RPC, a wallet imported and unlocked from the buyer's key, the
 * web host, and a page in a Chromium the caller owns. close() stops the desk and removes its data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { RENDERER_DIR } from './desk-fixture';

export interface PeerDeskOptions {
  browser: Browser;
  serviceUrl: string;
  /** Always the loopback chain: a desk without one would ask the network's public endpoint. */
  rpcUrl: string;
  buyerKey: Hex;
}

export interface PeerDesk {
  desk: DeskHost;
  page: Page;
  dataDir: string;
  close(): Promise<void>;
}

const PASSPHRASE = 'interop e2e passphrase';

export async function openPeerDesk(options: PeerDeskOptions): Promise<PeerDesk> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-interop-'));
  let desk: DeskHost | null = null;
  let context: BrowserContext | null = null;
  try {
    desk = await startDeskHost({
      core: {
        dataDir,
        serviceUrl: options.serviceUrl,
        rpcUrl: options.rpcUrl,
        demo: false,
        attempts: 1,
        walletKdfCost: 'fast-insecure-for-tests',
      },
      rendererDir: RENDERER_DIR,
    });
    const core = desk.core.handlers;
    const wallet = await core['wallet.import']({ privateKey: options.buyerKey, passphrase: PASSPHRASE });
    if (!wallet.unlocked) await core['wallet.unlock']({ passphrase: PASSPHRASE });
    // The first-run welcome is covered by new-user.test.ts; here it would only sit above the Shelf.
    await core['settings.update']({ welcomeDismissed: true });
    context = await options.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(desk.host.url);
    const opened = desk;
    const openedContext = context;
    return {
      desk: opened,
      page,
      dataDir,
      async close() {
        await openedContext.close();
        await opened.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context?.close();
    await desk?.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
