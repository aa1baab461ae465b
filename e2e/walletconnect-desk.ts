/**
 * A desk that pays through WalletConnect, everything on loopback: Base Sepolia on anvil, the interop peer
 * (official x402 packages) as the service, the test relay (test/walletconnect/relay.ts), a non-demo desk whose
 * connector dials that relay, and a page in a Chromium that can reach loopback only. The wallet is the test's
 * (test/walletconnect/wallet.ts). restart() closes the page and the desk and opens both on the same data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { RENDERER_DIR } from './desk-fixture';
import { z } from 'zod';
import { TEST_PROJECT_ID } from '../test/walletconnect/wallet';

const abandonedSchema = z.object({ purchaseId: z.string() });

export interface WalletConnectDesk {
  desk: DeskHost;
  page: Page;
  dataDir: string;
  /** Requests the page made, and sockets it opened, to anything but the desk itself. */
  foreign: string[];
  /** CSP violations the page reported, as "directive blocked-uri". */
  violations: string[];
  /** The purchases whose signature request the page told core to forget, in order. */
  abandoned: string[];
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface WalletConnectDeskOptions {
  browser: Browser;
  serviceUrl: string;
  rpcUrl: string;
  relayUrl: string;
}

/** Collects CSP violations where the page can report them: an exposed function the page calls. */
function reportViolations(): void {
  const report = (window as unknown as { __cspViolation: (line: string) => void }).__cspViolation;
  document.addEventListener('securitypolicyviolation', (event) =>
    report(`${event.effectiveDirective} ${event.blockedURI}`),
  );
}

export async function openWalletConnectDesk(options: WalletConnectDeskOptions): Promise<WalletConnectDesk> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-wc-'));
  const foreign: string[] = [];
  const violations: string[] = [];
  const abandoned: string[] = [];
  const openDesk = () =>
    startDeskHost({
      core: {
        dataDir,
        serviceUrl: options.serviceUrl,
        rpcUrl: options.rpcUrl,
        demo: false,
        attempts: 1,
        walletConnectRelayUrl: options.relayUrl,
      },
      rendererDir: RENDERER_DIR,
    });
  const openPage = async (desk: DeskHost): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await options.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const own = new URL(desk.host.url).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(own) && !url.startsWith('data:')) foreign.push(url);
      if (url.startsWith(`${own}/rpc/purchase.abandonSignature`))
        abandoned.push(abandonedSchema.parse(request.postDataJSON()).purchaseId);
    });
    page.on('websocket', (socket) => {
      if (!socket.url().startsWith(options.relayUrl)) foreign.push(socket.url());
    });
    await page.exposeFunction('__cspViolation', (line: string) => violations.push(line));
    await page.addInitScript(reportViolations);
    await page.goto(desk.host.url);
    return { context, page };
  };
  let desk: DeskHost | null = null;
  let opened: { context: BrowserContext; page: Page } | null = null;
  try {
    desk = await openDesk();
    await desk.core.handlers['settings.update']({
      welcomeDismissed: true,
      walletConnectProjectId: TEST_PROJECT_ID,
    });
    opened = await openPage(desk);
    const fixture: WalletConnectDesk = {
      desk,
      page: opened.page,
      dataDir,
      foreign,
      violations,
      abandoned,
      async restart() {
        await opened?.context.close();
        await fixture.desk.close();
        fixture.desk = await openDesk();
        opened = await openPage(fixture.desk);
        fixture.page = opened.page;
      },
      async close() {
        await opened?.context.close();
        await fixture.desk.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    return fixture;
  } catch (error) {
    await opened?.context.close();
    await desk?.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Settings → Connect with WalletConnect: resolves with the pairing link the page shows under its QR code. */
export async function showPairingLink(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Connect with WalletConnect' }).click();
  await page.getByRole('img', { name: 'WalletConnect pairing code' }).waitFor({ timeout: 30_000 });
  return page.getByLabel('WalletConnect pairing link').inputValue();
}
