/**
 * Money in the person's locale (decision 0049), in browser mode with everything real: a window in de-DE (the
 * desktop app puts its locale on the address as ?locale=) takes a cap typed "2,50" as 2.50 USD exactly,
 * shows it back as "2,5" and the spend as de-DE writes money, and refuses "2.50" with a sentence that says
 * how de-DE writes an amount, saving nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;
let page: Page;

const nav = (name: string) => page.getByRole('link', { name, exact: true }).first().click();

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  page = fx.page;
  // The address as the desktop app builds it: the locale in the query, the session in the fragment.
  const url = new URL(fx.desk.host.url);
  url.searchParams.set('locale', 'de-DE');
  await page.goto(url.href);
  await nav('Settings');
});

afterAll(() => fx?.close());

const capsForm = () => page.locator('form', { has: page.getByRole('heading', { name: 'Spending caps' }) });
const settings = () => fx.desk.core.handlers['settings.get']({});

async function setDailyCap(typed: string): Promise<string> {
  await capsForm().getByLabel('Per day (USD)').fill(typed);
  await capsForm().getByRole('button', { name: 'Save caps' }).click();
  const message = capsForm().getByRole('status');
  await expect.poll(() => message.textContent()).not.toBe('');
  return (await message.textContent()) ?? '';
}

describe('a de-DE window', () => {
  it('reads a cap typed "2,50" as 2.50 USD, to the base unit', async () => {
    // Lowering a cap needs no passphrase: the default daily cap is higher.
    expect(await setDailyCap('2,50')).toBe('Saved.');
    expect((await settings()).dailyCapUnits).toBe('2500000');
    await page.reload();
    await expect.poll(() => capsForm().getByLabel('Per day (USD)').inputValue()).toBe('2,5');
  });

  it('refuses "2.50", saying how de-DE writes an amount, and saves nothing', async () => {
    expect(await setDailyCap('2.50')).toBe(
      'Per day: "2.50" is not an amount as de-DE writes it: the decimal mark is "," and "." groups thousands (1.234,50).',
    );
    expect((await settings()).dailyCapUnits).toBe('2500000');
  });

  it('shows money as de-DE writes it', async () => {
    await nav('Purchases');
    await expect.poll(() => page.locator('main').textContent()).toContain('2,50\u00a0$');
  });
});
