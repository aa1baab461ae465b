/**
 * Browser mode, as a new user: the reference service, anvil, core and the web host all real, Debian's
 * Chromium in front.
 */
import { describe } from 'vitest';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startDeskHost } from '../src/host/desk-host';
import { launchChromium, recordRpc } from './browser';
import { newUserJourney, type DeskDriver } from './journey';

const root = path.resolve(__dirname, '..');
let browser: Browser | null = null;

const browserDriver: DeskDriver = {
  name: 'browser',
  downloads: true,
  async open({ dataDir, serviceUrl, rpcUrl, demoAsset }) {
    if (!browser) {
      browser = await launchChromium();
    }
    const desk = await startDeskHost({
      core: { dataDir, serviceUrl, rpcUrl, demo: true, demoAsset, attempts: 1 },
      rendererDir: path.join(root, 'out', 'renderer'),
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const rpc = recordRpc(page);
    await page.goto(desk.host.url);
    return {
      page,
      rpcBodies: () => rpc.all(),
      close: async () => {
        await page.close();
        await desk.close();
      },
    };
  },
  async dispose() {
    await browser?.close();
    browser = null;
  },
};

describe('browser mode, as a new user', () => newUserJourney(() => browserDriver));
