/** Debian's Chromium driven by playwright-core (the flags of e2e/browser.ts), and the page's JS heap over CDP. */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install it with "apt-get install chromium" to run this section.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** JSHeapUsedSize of the page after a forced garbage collection, from CDP Performance.getMetrics. */
export async function jsHeapUsedBytes(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.collectGarbage');
    await session.send('Performance.enable');
    const { metrics } = await session.send('Performance.getMetrics');
    const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize');
    if (!used) throw new Error('Chromium reported no JSHeapUsedSize');
    return used.value;
  } finally {
    await session.detach();
  }
}
