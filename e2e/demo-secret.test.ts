/**
 * The demo's library secret in browser mode: Settings offers it, core uses it, and the page never holds it;
 * Dossiers then open without the person typing anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageState } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

const SECRET = 'e2e-demo-secret-7d31';
let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 }, librarySecret: SECRET },
    demoLibrarySecret: true,
  });
});

afterAll(() => fx?.close());

describe("the demo's library secret", () => {
  it('is one click in Settings, opens Dossiers, and never reaches the page', async () => {
    const { page } = fx;
    const handle = (await fx.desk.core.handlers['shelf.list']({})).entries[0]!.username;
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    await page.getByRole('button', { name: 'Use the demo secret' }).click();
    await page.locator('[data-testid="secret-state"]', { hasText: 'accepted by the service' }).waitFor();
    await page.getByRole('link', { name: 'Dossiers', exact: true }).click();
    await page.getByLabel('Handle to open').fill(handle);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('tab', { name: 'Posts' }).waitFor();
    expect(await pageState(page)).not.toContain(SECRET);
  });
});
