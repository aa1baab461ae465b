/**
 * A handle's timeline when the person owns only some of its reports: the Report screen counts and compares
 * against the handle's menu, not the library alone. Six reports on the menu, three owned (the oldest, the
 * fourth and the newest): "Report 4 of 6 (you own 3)", three hollow points for the rest, and a compare of
 * the first and the fourth that names the two not owned between them instead of calling them consecutive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { day } from '../src/renderer/format';
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
    expect(await page.getByTestId('report-place').textContent()).toBe(
      `Report 4 of 6 (you own 3), ${day(fourth.createdAt)}`,
    );
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect.poll(() => timeline.getByTestId('timeline-owned').count()).toBe(3);
    expect(await timeline.getByTestId('timeline-not-owned').count()).toBe(3);
    expect(await timeline.textContent()).toContain('hollow ones you do not own');
    expect(await audit(page, 'timeline with gaps')).toEqual([]);
    await shotAt(page, 'report-timeline-gaps');
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
