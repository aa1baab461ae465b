/**
 * A desk that pays through WalletConnect, everything on loopback: Base Sepolia on anvil, the interop peer
 * (official x402 packages) as the service, the test relay (test/walletconnect/relay.ts), a non-demo desk whose
 * connector dials that relay, and a page in a Chromium that can reach loopback only. The wallet is the test's
 * (test/walletconnect/wallet.ts). restart() closes the page and the desk and opens both again on the same data
 * dir and port, in the same browser profile, as an app restart keeps its storage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { RENDERER_DIR } from './desk-fixture';
import { z } from 'zod';
import { TEST_PROJECT_ID } from '../test/walletconnect/wallet';
import { startTestRelay, type TestRelay } from '../test/walletconnect/relay';
import {
  startBaseSepolia,
  startInteropPeer,
  type BaseSepolia,
  type InteropPeer,
} from '../test/interop/fixtures';
import { launchLoopbackOnlyChromium } from './browser';

const abandonedSchema = z.object({ purchaseId: z.string() });

export interface WalletConnectDesk {
  desk: DeskHost;
  page: Page;
  dataDir: string;
  /** Requests the page made, and sockets it opened, to anything but the desk itself. */
  foreign: string[];
  /** CSP violations the page reported, as "directive blocked-uri". */
  violations: string[];
  /** WebSockets the page opened to the relay, since the desk first opened. */
  relaySockets: string[];
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
  /** Gives the page Playwright's clock (it runs as usual until a test moves it on). */
  clock?: boolean;
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
  const relaySockets: string[] = [];
  let port: number | undefined;
  const openDesk = () =>
    startDeskHost({
      // A restart keeps the port, so the page keeps its origin and what the connector stored there.
      ...(port !== undefined ? { port } : {}),
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
  let context: BrowserContext | null = null;
  const openPage = async (desk: DeskHost): Promise<Page> => {
    context ??= await options.browser.newContext({ viewport: { width: 1280, height: 900 } });
    if (options.clock) await context.clock.install();
    const page = await context.newPage();
    const own = new URL(desk.host.url).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(own) && !url.startsWith('data:')) foreign.push(url);
      if (url.startsWith(`${own}/rpc/purchase.abandonSignature`))
        abandoned.push(abandonedSchema.parse(request.postDataJSON()).purchaseId);
    });
    page.on('websocket', (socket) => {
      if (socket.url().startsWith(options.relayUrl)) relaySockets.push(socket.url());
      else foreign.push(socket.url());
    });
    await page.exposeFunction('__cspViolation', (line: string) => violations.push(line));
    await page.addInitScript(reportViolations);
    await page.goto(desk.host.url);
    return page;
  };
  let desk: DeskHost | null = null;
  try {
    desk = await openDesk();
    port = desk.host.port;
    await desk.core.handlers['settings.update']({
      welcomeDismissed: true,
      walletConnectProjectId: TEST_PROJECT_ID,
    });
    const fixture: WalletConnectDesk = {
      desk,
      page: await openPage(desk),
      dataDir,
      foreign,
      violations,
      abandoned,
      relaySockets,
      async restart() {
        await fixture.page.close();
        await fixture.desk.close();
        fixture.desk = await openDesk();
        fixture.page = await openPage(fixture.desk);
      },
      async close() {
        await context?.close();
        await fixture.desk.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    return fixture;
  } catch (error) {
    // Assigned inside openPage, which TypeScript does not follow here.
    await (context as BrowserContext | null)?.close();
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

/** What a WalletConnect e2e file runs against: a loopback-only browser, Base Sepolia on anvil, the seller, a relay. */
export interface WalletConnectWorld {
  browser: Browser;
  chain: BaseSepolia;
  peer: InteropPeer;
  relay: TestRelay;
  stop(): Promise<void>;
}

export async function startWalletConnectWorld(): Promise<WalletConnectWorld> {
  const browser = await launchLoopbackOnlyChromium();
  const chain = await startBaseSepolia();
  const peer = await startInteropPeer({ chain, form: 'stock' });
  const relay = await startTestRelay();
  return {
    browser,
    chain,
    peer,
    relay,
    async stop() {
      await browser.close();
      await relay.stop();
      await peer.stop();
      await chain.stop();
    },
  };
}
