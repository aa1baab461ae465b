/** Debian's Chromium (scripts/chromium.ts) and the page's JS heap over CDP. */
import type { Page } from 'playwright-core';

export { launchDebianChromium as launchChromium } from '../scripts/chromium';

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
