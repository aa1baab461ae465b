/**
 * One desk for an e2e file: the reference service and anvil, core and the web host on a temp data dir, and
 * a Chromium page on it. Everything is real; close() stops it all and removes the data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { startStack, type Stack, type StackOptions } from '../src/service/stack';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { launchChromium } from './browser';

/** The built renderer every browser-mode desk serves. */
export const RENDERER_DIR = path.resolve(__dirname, '..', 'out', 'renderer');

export interface DeskFixtureOptions {
  stack: StackOptions;
  /** Where the desk reaches the service: the stack itself unless a test puts something in between. */
  serviceUrl?: (stack: Stack) => Promise<string>;
  /** A buyer key imported and unlocked as the demo wallet, as `npm start` does. */
  demoKey?: (stack: Stack) => Hex;
  /** Offer the stack's library secret as the demo's, as `npm start` does. */
  demoLibrarySecret?: boolean;
  /** Runs on each new page before it loads the desk: traps, listeners, an injected wallet. */
  beforeLoad?: (page: Page) => Promise<void>;
  /** The desk host's testing-aid variables (INTEL_DESK_CLOCK_OFFSET_MS); by default this process's. */
  env?: Record<string, string | undefined>;
}

export interface DeskFixture {
  stack: Stack;
  desk: DeskHost;
  browser: Browser;
  page: Page;
  dataDir: string;
  /** Closes the page and the desk, then opens both again on the same data dir. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function openDeskFixture(options: DeskFixtureOptions): Promise<DeskFixture> {
  const stack = await startStack(options.stack);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-e2e-'));
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    return await assemble(options, stack, dataDir, browser);
  } catch (error) {
    await browser?.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function assemble(
  options: DeskFixtureOptions,
  stack: Stack,
  dataDir: string,
  browser: Browser,
): Promise<DeskFixture> {
  const demoKey = options.demoKey?.(stack);
  const serviceUrl = (await options.serviceUrl?.(stack)) ?? stack.baseUrl;
  const openDesk = () =>
    startDeskHost({
      core: {
        dataDir,
        serviceUrl,
        rpcUrl: stack.rpcUrl,
        demo: true,
        demoAsset: stack.asset,
        attempts: 1,
        ...(options.demoLibrarySecret ? { demoLibrarySecret: stack.librarySecret } : {}),
      },
      rendererDir: RENDERER_DIR,
      ...(demoKey ? { demoKey } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
  const openPage = async (desk: DeskHost) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await options.beforeLoad?.(page);
    await page.goto(desk.host.url);
    return page;
  };
  const desk = await openDesk();
  const fixture: DeskFixture = {
    stack,
    desk,
    browser,
    page: await openPage(desk),
    dataDir,
    async restart() {
      await fixture.page.close();
      await fixture.desk.close();
      fixture.desk = await openDesk();
      fixture.page = await openPage(fixture.desk);
    },
    async close() {
      await browser.close();
      await fixture.desk.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}
