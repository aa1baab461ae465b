/** The steps a person takes in the app, shared by the browser and the Electron e2e. */
import type { Page } from 'playwright-core';

export async function openShelf(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Shelf', exact: true }).click();
  await page.locator('.shelf-row').first().waitFor();
}

export async function filterAndOpen(page: Page, handle: string): Promise<void> {
  await page.getByLabel('Filter handles').fill(handle.slice(0, Math.max(4, handle.length - 2)));
  await page
    .locator('.shelf-row', { hasText: `@${handle}` })
    .first()
    .click();
  await page.locator('table[aria-label="Reports"] tbody tr').first().waitFor();
}

/** Waits until the price panel shows `usd`, i.e. the live quote for the current choice has arrived. */
export async function waitForPrice(page: Page, usd: string): Promise<void> {
  await page.locator('[data-testid="price"]', { hasText: usd }).waitFor({ timeout: 20_000 });
}

export async function buy(page: Page, usd: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^Buy \\d+ reports? for \\${usd}$`) }).click();
  await page.locator('[data-testid="confirm-amount"]', { hasText: usd }).waitFor();
  await page.getByRole('button', { name: `Pay ${usd}` }).click();
  await page.locator('[data-testid="purchase-outcome"]').waitFor({ timeout: 30_000 });
}

export async function searchLibrary(page: Page, word: string): Promise<void> {
  await page.getByRole('link', { name: 'Library', exact: true }).click();
  await page.getByLabel('Search owned reports').fill(word);
  await page.locator('[data-testid="search-hits"] mark').first().waitFor();
}
