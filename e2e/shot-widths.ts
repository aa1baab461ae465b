/** Screenshots of what a test shows, at the two widths every screen is checked at, for a person to look at. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const SHOTS = path.resolve(__dirname, '..', '.cache', 'shots');

/** `name`-1280.png and `name`-900.png (full page), then the page is back at its own width. */
export async function shotAt(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}
