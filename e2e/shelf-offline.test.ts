/**
 * The Shelf when the service goes away and comes back, for real: the reference service's HTTP front is
 * closed and opened again on the same port while the desk runs. The Shelf says it once, shows the saved
 * copy without claiming there is none, and the badge follows the service both ways without navigating. A
 * service never reached (no copy) shows one error and no list of another service's handles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closedPortUrl } from '../test/closed-port';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { openShelf } from './flow';
import { shotAt } from './shot-widths';
import { addAxe, audit } from './axe';

let fx: DeskFixture;
let page: Page;

beforeAll(async () => {
  fx = await openDeskFixture({
    beforeLoad: addAxe,
    stack: { seed: { handles: 60, minReportsPerHandle: 1, maxReportsPerHandle: 2 } },
  });
  page = fx.page;
});

afterAll(() => fx?.close());

const badge = () => page.getByTestId('connection');
const stale = () => page.getByTestId('stale');
const errors = () => page.locator('.state-error, .error-text');

describe('the Shelf when the service goes away', () => {
  it('shows the saved copy once, says offline at once, and is live again when the service is back', async () => {
    await openShelf(page);
    expect(await badge().textContent()).toBe('online');
    await fx.stack.stopService();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await stale().waitFor();
    // Told by core's event, not by navigating.
    await badge().filter({ hasText: 'offline' }).waitFor();
    expect(await page.getByTestId('offline-pointer').textContent()).toContain('as it was last fetched');
    expect(await page.locator('main').textContent()).not.toContain('No copy');
    expect(await errors().count()).toBe(0);
    expect(await page.getByTestId('shelf-count').textContent()).toBe('60 of 60 handles');
    expect(await audit(page, 'shelf offline copy')).toEqual([]);
    await shotAt(page, 'shelf-offline-copy');

    await fx.stack.restartService();
    // Nobody clicks anything: the desk notices the service is back and the Shelf is fetched live again.
    await badge().filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await stale().waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.getByTestId('offline-pointer').count()).toBe(0);
  });

  it('with no copy of the shelf, says so once and lists nothing from the service before', async () => {
    const unreachable = await closedPortUrl();
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Service URL').fill(unreachable);
    await page.getByRole('button', { name: 'Use this service' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('link', { name: 'Shelf', exact: true }).click();
    await page
      .getByTestId('offline-pointer')
      .filter({ hasText: 'No copy of this shelf is saved yet.' })
      .waitFor();
    await badge().filter({ hasText: 'offline' }).waitFor();
    expect(await errors().count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    expect(await page.locator('.shelf-row').count()).toBe(0);
    // Refresh fails the same way: still one message, not a second copy of it.
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Refresh', exact: true }).isEnabled())
      .toBe(true);
    expect(await errors().count()).toBe(1);
    expect(await audit(page, 'shelf with no copy')).toEqual([]);
    await shotAt(page, 'shelf-offline-no-copy');
  });
});
