/**
 * Compare on the report screen: two owned reports of a handle, bought over the real service and chain,
 * and the change between them as a person reads it (figures, topic shares as percentages, word diff).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAll } from '../test/core/helpers';
import type { IntelReportSnapshot } from '../src/shared/wire';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;
let reports: IntelReportSnapshot[];

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  const core = fx.desk.core;
  const handle = (await core.handlers['shelf.list']({})).entries[0]!.username;
  const { outcome } = await buyAll(core, handle);
  expect(outcome.status).toBe('completed');
  const { items } = await core.handlers['library.list']({ handle });
  reports = await Promise.all(
    items.map(async (item) => (await core.handlers['report.get']({ id: item.id })).snapshot),
  );
  reports.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
});

afterAll(() => fx?.close());

/** Opens the latest report from the Library, so each test starts there whatever ran before it. */
async function openLatest(): Promise<void> {
  const { page } = fx;
  await page.getByRole('link', { name: 'Library', exact: true }).first().click();
  await page.locator('#library-row-0 button').click();
  await page.getByLabel('Report over time').selectOption(reports[2]!.id);
}

describe('comparing two reports of a handle', () => {
  it('shows the previous report against this one: post counts, shares in percent, words changed', async () => {
    const { page } = fx;
    const [, previous, latest] = reports as [IntelReportSnapshot, IntelReportSnapshot, IntelReportSnapshot];
    await openLatest();
    const compare = page.getByRole('region', { name: 'Compare with another report' });
    await compare.getByRole('button', { name: 'Show changes' }).click();
    const postRow = compare.getByRole('row', { name: /^Post count/ });
    await expect
      .poll(() => postRow.textContent())
      .toContain(`${previous.meta.postCount}${latest.meta.postCount}`);
    const shares = latest.analytics['topicShare'] as { label: string; value: number }[];
    const first = shares[0]!;
    const shareRow = compare.getByRole('row', { name: new RegExp(`Topic share: ${first.label}`) });
    expect(await shareRow.textContent()).toContain(`${Math.round(first.value * 1000) / 10}%`);
    const removed = await compare.locator('.word-diff del').allTextContents();
    const added = await compare.locator('.word-diff ins').allTextContents();
    expect(removed.length + added.length).toBeGreaterThan(0);
    expect(added.join(' ')).not.toBe(removed.join(' '));
  });

  it('compares with a report the person picks, older first whichever is open', async () => {
    const { page } = fx;
    const [oldest] = reports as [IntelReportSnapshot];
    await openLatest();
    const compare = page.getByRole('region', { name: 'Compare with another report' });
    await compare.getByRole('button', { name: 'Show changes' }).click();
    const options = await compare.getByRole('combobox').locator('option').allTextContents();
    expect(options).toHaveLength(2);
    await compare.getByRole('combobox').selectOption({ index: 0 });
    await expect
      .poll(() => compare.locator('.report-diff p.muted').first().textContent())
      .toMatch(/owned between them/);
    const text = (await compare.locator('.report-diff').textContent()) ?? '';
    expect(text).toContain(oldest.model);
  });
});
