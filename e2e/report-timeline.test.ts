/**
 * The Report screen as a person reads it, in browser mode over the real service and chain: which handle it
 * is about and where it sits in the handle's timeline, charts with date axes and percentages that the
 * keyboard reaches (Tab into a chart, arrow keys move its tooltip), and the timeline walked to another
 * report, by keyboard and by pointer, and two of its points compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { buyAll } from '../test/core/helpers';
import type { ReportView } from '../src/shared/rpc';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;
let page: Page;
let displayName: string;
let username: string;
/** The handle's reports, oldest first, as report.get gives them. */
let views: ReportView[];

const place = () => page.getByTestId('report-place').textContent();
const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');

async function open(id: string): Promise<void> {
  await page.evaluate(
    (hash) => {
      window.location.hash = hash;
    },
    `#/report/${encodeURIComponent(id)}`,
  );
  await page.locator('.chart-box .recharts-surface').first().waitFor();
}

/** The third of the four reports, where each test starts whatever ran before it. */
async function openThird(): Promise<void> {
  await open(views[2]!.snapshot.id);
}

/** Clicks a timeline point where it is drawn. */
async function clickPoint(timeline: Locator, index: number): Promise<void> {
  const box = (await timeline.locator('.timeline-dot').nth(index).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  page = fx.page;
  const core = fx.desk.core.handlers;
  const entry = (await core['shelf.list']({})).entries[0]!;
  username = entry.username;
  displayName = entry.displayName!;
  expect(displayName).toBeTruthy();
  expect((await buyAll(fx.desk.core, username)).outcome.status).toBe('completed');
  // The menu seen, as a person buying from it has: the timeline counts against it (report-gaps.test.ts).
  await core['menu.get']({ handle: username });
  // Past the first-run welcome, whose dialog would hold the keyboard.
  await core['settings.update']({ welcomeDismissed: true });
  await page.reload();
  const { items } = await core['library.list']({ handle: username });
  views = await Promise.all(items.map((item) => core['report.get']({ id: item.id })));
  views.sort((a, b) => a.snapshot.createdAt.localeCompare(b.snapshot.createdAt));
});

afterAll(() => fx?.close());

describe('the Report screen', () => {
  it('says which handle the report is about and its place in the timeline', async () => {
    const third = views[2]!.snapshot;
    await open(third.id);
    const handle = page.locator('.report-handle');
    expect(await handle.textContent()).toBe(`${displayName} @${username}`);
    expect(await place()).toBe('Report 3 of 4');
  });

  it('draws the analytics with date axes and shares as percentages, at 12 px at least', async () => {
    await openThird();
    const analytics = page.locator('section[aria-label="Analytics"]');
    const axis = analytics
      .locator('figure', { hasText: 'Posts per day' })
      .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await axis.first().waitFor();
    const ticks = await axis.allTextContents();
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    const topics = views[2]!.snapshot.analytics['topicShare'] as { label: string; value: number }[];
    const shares = await analytics.locator('figure', { hasText: 'Topic share' }).locator('.chart-value');
    expect(await shares.allTextContents()).toEqual(topics.map((t) => `${Math.round(t.value * 100)}%`));
    const sizes = await analytics
      .locator('.recharts-cartesian-axis-tick-value, .chart-value')
      .evaluateAll((els) => els.map((el) => parseFloat(getComputedStyle(el).fontSize)));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
  });

  it('takes a chart into the tab order and moves its tooltip with the arrow keys', async () => {
    await openThird();
    const topic = page.locator('figure', { hasText: 'Topic share' });
    const topics = views[2]!.snapshot.analytics['topicShare'] as { label: string; value: number }[];
    // Tab from the timeline's last control reaches the chart in a few steps, named for what it shows.
    await page.getByRole('button', { name: 'Show changes' }).focus();
    const stops: string[] = [];
    for (let i = 0; i < 8 && !stops.at(-1)?.startsWith('Topic share'); i++) {
      await page.keyboard.press('Tab');
      stops.push(await focusedLabel());
    }
    expect(stops.at(-1)).toMatch(/^Topic share, a bar chart/);
    const tooltip = topic.locator('.chart-tooltip');
    await expect
      .poll(() => tooltip.textContent())
      .toBe(`${topics[0]!.label}${Math.round(topics[0]!.value * 100)}%`);
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => tooltip.textContent())
      .toBe(`${topics[1]!.label}${Math.round(topics[1]!.value * 100)}%`);
    expect(await tooltip.getAttribute('role')).toBe('status');
  });

  it('walks the timeline to another report with the keyboard and with the pointer', async () => {
    await openThird();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    expect(await timeline.locator('.timeline-dot').count()).toBe(4);
    expect(await timeline.locator('.timeline-dot.current').count()).toBe(1);
    await timeline.getByRole('button', { name: 'Compare two…' }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toMatch(
      new RegExp(`^Reports of @${username} over time, 4 in all, 4 you own`),
    );
    // Focus puts the tooltip on the oldest report; the arrow keys move it, Enter opens it.
    const tooltip = timeline.locator('.chart-tooltip');
    const oldest = views[0]!.snapshot;
    await expect.poll(() => tooltip.textContent()).toContain('Baseline');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await expect.poll(place).toBe('Report 1 of 4');
    expect(await page.evaluate(() => window.location.hash)).toMatch(
      new RegExp(`^#/report/${oldest.id}\\?service=`),
    );
    // The pointer: the newest point opens the newest report.
    const newest = views[3]!.snapshot;
    await clickPoint(page.getByRole('region', { name: 'Timeline' }), 3);
    await expect.poll(place).toBe('Report 4 of 4');
    expect(await page.evaluate(() => window.location.hash)).toContain(newest.id);
  });

  it('compares two points chosen on the timeline in the compare view', async () => {
    await openThird();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByRole('button', { name: 'Compare two…' }).click();
    await clickPoint(timeline, 0);
    await expect.poll(() => timeline.textContent()).toContain('chosen');
    await clickPoint(timeline, 2);
    const [older, newer] = [views[0]!.snapshot, views[2]!.snapshot];
    await expect.poll(place).toBe('Report 3 of 4');
    const compare = page.getByRole('region', { name: 'Compare with another report' });
    await expect
      .poll(() => compare.locator('.report-diff p.muted').first().textContent())
      .toContain('1 owned between them');
    expect(await compare.getByRole('combobox').inputValue()).toBe(older.id);
    expect(await page.evaluate(() => window.location.hash)).toContain(newer.id);
  });
});
