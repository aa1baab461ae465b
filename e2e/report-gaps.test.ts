/**
 * A handle's timeline when the person owns only some of its reports: the Report screen counts and compares
 * against the handle's menu, not the library alone. Six reports on the menu, three owned (the oldest, the
 * fourth and the newest): "Report 4 of 6 (you own 3)", three hollow points for the rest, and a compare of
 * the first and the fourth that names the two not owned between them instead of calling them consecutive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MenuItemView } from '../src/shared/rpc';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { shotAt } from './shot-widths';
import { addAxe, audit } from './axe';

let fx: DeskFixture;
let page: Page;
let username: string;
/** The menu's reports, oldest first. */
let reports: MenuItemView[];

async function open(id: string, compare?: string): Promise<void> {
  const query = compare ? `?compare=${encodeURIComponent(compare)}` : '';
  await page.evaluate(
    (hash) => {
      window.location.hash = hash;
    },
    `#/report/${encodeURIComponent(id)}${query}`,
  );
  await page.getByTestId('report-place').waitFor();
}

beforeAll(async () => {
  fx = await openDeskFixture({
    beforeLoad: addAxe,
    stack: { seed: { handles: 1, minReportsPerHandle: 6, maxReportsPerHandle: 6 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  page = fx.page;
  const core = fx.desk.core.handlers;
  username = (await core['shelf.list']({})).entries[0]!.username;
  const menu = await core['menu.get']({ handle: username });
  reports = [...menu.reports].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  expect(reports).toHaveLength(6);
  const ids = [reports[0]!.id, reports[3]!.id, reports[5]!.id];
  const quote = await core['quote.get']({ handle: username, selection: { kind: 'ids', ids } });
  const outcome = await core['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
  expect(outcome.status).toBe('completed');
  await core['settings.update']({ welcomeDismissed: true });
  await page.reload();
});

afterAll(() => fx?.close());

describe('a timeline with reports not owned', () => {
  it('counts the place against the menu and marks the reports not owned', async () => {
    const fourth = reports[3]!;
    await open(fourth.id);
    // The date is the title's; the place does not say it a second time.
    expect(await page.getByTestId('report-place').textContent()).toBe('Report 4 of 6 (you own 3)');
    // "Report over time" lists what the timeline shows: the three not owned too, said and not choosable.
    const options = page.getByLabel('Report over time').locator('option');
    expect(await options.count()).toBe(6);
    const notOwned = options.filter({ hasText: / · not owned$/ });
    expect(await notOwned.count()).toBe(3);
    for (const option of await notOwned.all()) expect(await option.isDisabled()).toBe(true);
    expect(await options.nth(3).textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, .* · \S+$/);
    expect(await options.nth(3).isDisabled()).toBe(false);
    await shotAt(page, 'report-timeline-gaps');
    // One date on the page, and a toolbar that fits in one row at 1280 px and at 900 px.
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 900 });
      // One row is no taller than its tallest item: the whole toolbar at 1280 px, each group at 900 px.
      const rows = page.locator(width === 1280 ? '.report-toolbar' : '.report-toolbar .toolbar-group');
      for (const row of await rows.all()) {
        const [height, tallest] = await row.evaluate((bar) => [
          bar.getBoundingClientRect().height,
          Math.max(...[...bar.children].map((item) => item.getBoundingClientRect().height)),
        ]);
        expect(height, `a toolbar row at ${width} px`).toBeLessThanOrEqual(tallest! + 1);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect.poll(() => timeline.getByTestId('timeline-owned').count()).toBe(3);
    expect(await timeline.getByTestId('timeline-not-owned').count()).toBe(3);
    expect(await timeline.textContent()).toContain('hollow ones you do not own');
    expect(await audit(page, 'timeline with gaps')).toEqual([]);
  });

  it('does not call two owned reports consecutive when reports not owned sit between them', async () => {
    await open(reports[3]!.id, reports[0]!.id);
    const compare = page.getByRole('region', { name: 'Compare with another report' });
    const line = compare.locator('.report-diff p.muted').first();
    await expect.poll(() => line.textContent()).toContain('2 not owned between them');
    expect(await line.textContent()).not.toContain('consecutive');
    await shotAt(page, 'report-compare-gaps');
    await open(reports[5]!.id, reports[3]!.id);
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Compare with another report' })
          .locator('.report-diff p.muted')
          .first()
          .textContent(),
      )
      .toContain('1 not owned between them');
  });

  it('opens the menu from a report not owned, where it can be bought', async () => {
    await open(reports[3]!.id);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const box = (await timeline.getByTestId('timeline-not-owned').first().boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('table[aria-label="Reports"] tbody tr').first().waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe(`#/handle/${username}`);
  });
});
