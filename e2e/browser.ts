/** Debian's Chromium driven by playwright-core, and a recorder of every RPC answer the page receives. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchDebianChromium } from '../scripts/chromium';
import { closedPortUrl } from '../test/closed-port';

export const ARTIFACTS = path.join(__dirname, 'artifacts');

export function launchChromium(): Promise<Browser> {
  return launchDebianChromium();
}

/**
 * Chromium that can reach loopback only: other host names never resolve, and anything that is not loopback
 * (an IP literal included) is sent to a proxy port where nothing listens.
 */
export async function launchLoopbackOnlyChromium(): Promise<Browser> {
  return launchDebianChromium([
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    `--proxy-server=${await closedPortUrl()}`,
  ]);
}

/** Keeps the body of every /rpc/ response, to prove no secret ever comes back. */
export function recordRpc(page: Page): { all(): Promise<string[]> } {
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/rpc/')) return;
    bodies.push(
      response.text().then(
        (text) => `${response.url()} ${text}`,
        () => '',
      ),
    );
  });
  return { all: () => Promise.all(bodies) };
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Everything the page itself holds: DOM with input values, both storages, IndexedDB database names. */
export async function pageState(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const inputs = [...document.querySelectorAll('input, textarea')].map(
      (el) => (el as HTMLInputElement).value,
    );
    const storage = (s: Storage) =>
      [...Array(s.length).keys()].map((i) => `${s.key(i)}=${s.getItem(s.key(i) ?? '')}`);
    const databases = (await indexedDB.databases()).map((d) => d.name ?? '');
    return [
      document.documentElement.outerHTML,
      ...inputs,
      ...storage(localStorage),
      ...storage(sessionStorage),
      ...databases,
    ].join('\n');
  });
}
