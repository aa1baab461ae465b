/**
 * The menu's plan and dates, and Settings' service URL, in browser mode against the real service: the plan
 * keeps the price of the live quote it has just shown when the choice empties, a backwards date range is
 * marked beside the dates (the price panel only says why it is empty), a choice is each handle's own, and a URL that is not http(s) is
 * refused, not "Saved.", and is not there after a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, openShelf, waitForPrice } from './flow';
import { shotAt } from './shot-widths';
import { addAxe, audit } from './axe';

let fx: DeskFixture;
let page: Page;
let handle: string;

beforeAll(async () => {
  fx = await openDeskFixture({
    beforeLoad: addAxe,
    stack: { seed: { handles: 2, minReportsPerHandle: 3, maxReportsPerHandle: 3 }, unitPriceUsd: 0.01 },
  });
  page = fx.page;
  handle = (await fx.desk.core.handlers['shelf.list']({})).entries[0]!.username;
});

afterAll(() => fx?.close());

const plan = (part: string) => page.getByTestId(`plan-${part}`);

describe('the plan and the dates', () => {
  it('keeps the live price it showed when nothing is chosen any more', async () => {
    // No purchase and no earlier quote: the live quote the menu asks for is the first price this desk sees.
    // Asked before the menu opens: once it is open, its own quote may already have answered.
    expect(await fx.desk.core.handlers['quote.lastPrice']({ handle })).toBeNull();
    await openShelf(page);
    await filterAndOpen(page, handle);
    await waitForPrice(page, '$0.03');
    // Choosing one by one starts from nothing ticked, not from every report.
    await page.getByLabel('Individual reports').check();
    await page.getByTestId('nothing-to-price').filter({ hasText: 'Nothing chosen.' }).waitFor();
    const boxes = page.getByRole('checkbox', { name: /^Choose report of / });
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    expect(await plan('all').textContent()).toContain('≈ $0.03');
    expect(await plan('missing-only').textContent()).toContain('≈ $0.03');
    expect(await page.getByTestId('plan-source').textContent()).toMatch(
      /^Estimates at \$0\.01 per report, the price of the live quote of /,
    );
    expect(await page.getByTestId('planner').textContent()).not.toContain('unknown');
  });

  it('ticks every report and none with one press each, and says All as the plan says it', async () => {
    const boxes = page.getByRole('checkbox', { name: /^Choose report of / });
    await page.getByRole('button', { name: 'Tick all' }).click();
    await waitForPrice(page, '$0.03');
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Tick none' }).click();
    await page.getByTestId('nothing-to-price').filter({ hasText: 'Nothing chosen.' }).waitFor();
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    expect(await plan('missing-only').textContent()).toMatch(/^All 3 \(3 missing\)/);
    expect(await plan('all').textContent()).toMatch(/^All 3 \(none owned\)/);
    expect(await page.getByRole('radio', { name: 'All 3 (3 missing)' }).count()).toBe(1);
    await shotAt(page, 'menu-tick-none');
  });

  it('marks a backwards range beside the dates, not in the price panel', async () => {
    await page.getByLabel('A date range').check();
    await page.getByLabel('From date').fill('2030-01-02');
    await page.getByLabel('To date').fill('2030-01-01');
    const error = page.getByTestId('dates-error');
    await error.filter({ hasText: 'From is after To.' }).waitFor();
    expect(await page.getByLabel('To date').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('To date').getAttribute('aria-describedby')).toBe(
      await error.getAttribute('id'),
    );
    const panel = page.locator('aside[aria-label="Purchase"]');
    expect(await panel.textContent()).not.toContain('From is after To.');
    await panel
      .getByTestId('nothing-to-price')
      .filter({ hasText: 'No price until the dates are in order.' })
      .waitFor();
    expect(await audit(page, 'dates backwards')).toEqual([]);
    await shotAt(page, 'menu-dates-backwards');
    await page.getByLabel('To date').fill('2030-01-03');
    await error.waitFor({ state: 'detached' });
  });
});

describe('a handle’s own choice', () => {
  it('does not carry a date range to the next handle opened by URL, nor back', async () => {
    const other = (await fx.desk.core.handlers['shelf.list']({})).entries[1]!.username;
    await page.evaluate((h) => (window.location.hash = `#/handle/${encodeURIComponent(h)}`), handle);
    await page.getByLabel('A date range').check();
    await page.getByLabel('From date').fill('2020-01-01');
    await page.evaluate((h) => (window.location.hash = `#/handle/${encodeURIComponent(h)}`), other);
    await page.locator('#menu-title', { hasText: `@${other}` }).waitFor();
    expect(await page.getByRole('radio', { name: /^All \d+ \(/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('From date').count()).toBe(0);
    await page.goBack();
    await page.locator('#menu-title', { hasText: `@${handle}` }).waitFor();
    expect(await page.getByRole('radio', { name: /^All \d+ \(/ }).isChecked()).toBe(true);
  });
});

describe('Settings → Service URL', () => {
  it('refuses what is not an http(s) URL and keeps the one in use', async () => {
    const before = (await fx.desk.core.handlers['settings.get']({})).serviceUrl;
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const field = page.getByLabel('Service URL');
    await field.fill('htp:/bad url');
    await page.getByRole('button', { name: 'Use this service' }).click();
    const form = page.locator('form', { has: field });
    await form.locator('.form-message.error-text', { hasText: 'http:// or https://' }).waitFor();
    expect(await form.textContent()).not.toContain('serviceUrl');
    expect(await form.textContent()).not.toContain('Saved.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await shotAt(page, 'settings-bad-service-url');
    expect((await fx.desk.core.handlers['settings.get']({})).serviceUrl).toBe(before);
    await page.reload();
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect.poll(() => page.getByLabel('Service URL').inputValue()).toBe(before);
  });
});
