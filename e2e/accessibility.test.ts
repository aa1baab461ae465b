/**
 * WCAG 2.2 AA as axe-core sees it, on every screen and dialog in light and dark, before and after a value is
 * typed into every field: any serious or critical violation fails. One desk for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addAxe, audit, typeIntoEveryField } from './axe';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, waitForPrice } from './flow';

const SECRET = 'e2e-a11y-library-secret-7f3d';
let fx: DeskFixture;
let page: Page;
let handles: string[];

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 4, minReportsPerHandle: 2, maxReportsPerHandle: 3 }, librarySecret: SECRET },
    demoKey: (stack) => stack.buyerKeys[0]!,
    beforeLoad: addAxe,
  });
  handles = (await fx.desk.core.handlers['shelf.list']({})).entries.map((e) => e.username);
  page = fx.page;
});

afterAll(() => fx?.close());

const nav = (name: string) => page.getByRole('link', { name, exact: true }).first().click();

// Order: within a theme the audits follow one person through the app, and later states are reached only
// through earlier ones (the outcome of the purchase in the Menu test is what "Read now" opens in the Report
// test). Each theme starts again from a reload on the Shelf, with the library secret cleared.
describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  const found: string[] = [];
  const check = async (state: string) => found.push(...(await audit(page, `${theme} ${state}`)));

  beforeAll(async () => {
    await fx.desk.core.handlers['settings.update']({ theme });
    await fx.desk.core.handlers['settings.clearLibrarySecret']({});
    page = fx.page;
    await page.reload();
    await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
    // A reload stays on the screen the last suite ended on.
    await nav('Shelf');
    await page.locator('.shelf-row').first().waitFor();
  });

  it('Shelf: loaded, with a current row, and with a filter typed', async () => {
    await check('shelf');
    await page.getByRole('listbox', { name: 'Handles' }).focus();
    await page.keyboard.press('ArrowDown');
    await check('shelf with current row');
    expect(await typeIntoEveryField(page)).toBe(1);
    await page.getByText(/^No handle matches/).waitFor();
    await check('shelf filtered to nothing');
    await page.getByLabel('Filter handles').fill('');
    expect(found).toEqual([]);
  });

  it('Menu with the purchase panel, dates typed, the confirmation dialog and the outcome', async () => {
    const handle = handles[theme === 'light' ? 0 : 1]!;
    const menu = await fx.desk.core.handlers['menu.get']({ handle });
    await filterAndOpen(page, handle);
    const usd = `$${(menu.reportCount * 0.01).toFixed(2)}`;
    await waitForPrice(page, usd);
    await check('menu');
    await page.getByLabel('A date range').check();
    expect(await typeIntoEveryField(page)).toBe(2);
    await check('menu with dates typed');
    await page.getByRole('radio', { name: /^All \d+ \(/ }).check();
    await waitForPrice(page, usd);
    await page.getByRole('button', { name: new RegExp(`^Buy \\d+ reports? for \\${usd}$`) }).click();
    await page.getByRole('dialog', { name: 'Confirm the purchase' }).waitFor();
    await check('purchase confirmation dialog');
    await page.getByRole('button', { name: `Pay ${usd}` }).click();
    await page
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought' })
      .waitFor({ timeout: 30_000 });
    await check('purchase outcome');
    expect(found).toEqual([]);
  });

  it('Report, Library (list and search) and Purchases', async () => {
    await page.getByRole('button', { name: 'Read now' }).click();
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
    await check('report');
    await nav('Library');
    await page.locator('[data-testid="library-items"] tbody tr').first().waitFor();
    await page.getByRole('grid', { name: 'Owned reports' }).focus();
    await page.keyboard.press('ArrowDown');
    await check('library with current row');
    // The search box and the name for a saved search.
    expect(await typeIntoEveryField(page)).toBe(2);
    await page.getByLabel('Search owned reports').fill('the');
    await page.locator('[data-testid="search-hits"], .state-empty').first().waitFor();
    await check('library search');
    await page.getByLabel('Search owned reports').fill('the )');
    await page.getByTestId('search-error').waitFor();
    await check('library search syntax error');
    await nav('Purchases');
    await page.locator('table[aria-label="Purchases"] tbody tr').first().waitFor();
    await check('purchases');
    expect(found).toEqual([]);
  });

  it('Settings: loaded, every field typed, and an import refused', async () => {
    await nav('Settings');
    await page.getByLabel('WalletConnect project id').waitFor();
    await check('settings');
    expect(await typeIntoEveryField(page)).toBeGreaterThanOrEqual(7);
    await page.getByText('A WalletConnect project id is 32 hexadecimal characters.').waitFor();
    await page.getByRole('button', { name: 'Import wallet' }).click();
    await page.getByText('A private key is 64 hexadecimal characters.').waitFor();
    await check('settings typed, with errors');
    await page.getByLabel('Keystore JSON file').check();
    await page.getByLabel('Keystore password').fill('Typed value');
    await check('settings, keystore import');
    expect(found).toEqual([]);
  });

  it('Dossiers: without the secret, the handle typed, and every part of the editor', async () => {
    await nav('Dossiers');
    await page.getByText('Dossiers need the library secret.').waitFor();
    await check('dossiers without the secret');
    await fx.desk.core.handlers['settings.setLibrarySecret']({ secret: SECRET });
    await page.reload();
    await nav('Dossiers');
    await page.getByText('Choose or type a handle to open its dossier.').waitFor();
    expect(await typeIntoEveryField(page)).toBe(1);
    await check('dossiers with a handle typed');
    await page.getByLabel('Handle to open').fill(handles[2]!);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('tab', { name: 'Profile' }).waitFor();
    for (const part of ['Profile', 'Posts', 'Edges', 'Reports', 'Raw JSON']) {
      await page.getByRole('tab', { name: part }).click();
      await page.getByRole('tabpanel', { name: part }).waitFor();
      await check(`dossier ${part}`);
      await typeIntoEveryField(page);
      await check(`dossier ${part} typed`);
    }
    await page.getByRole('button', { name: /^Review and save/ }).click();
    await page.getByRole('dialog', { name: 'Save the dossier' }).waitFor();
    await check('dossier save dialog');
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(found).toEqual([]);
  });
});

describe('Settings for a screen reader', () => {
  /** The role and text of what a field's aria-describedby points at. */
  const description = (field: ReturnType<Page['getByRole']>) =>
    field.evaluate((el) => {
      const target = document.getElementById(el.getAttribute('aria-describedby') ?? '');
      return target ? { role: target.getAttribute('role'), text: target.textContent } : null;
    });

  beforeAll(async () => {
    await nav('Settings');
    await page.getByRole('heading', { name: 'Spending caps' }).waitFor();
  });

  it('announces "Saved." from a status line that was already there', async () => {
    const caps = page.locator('form', { has: page.getByRole('heading', { name: 'Spending caps' }) });
    const status = caps.getByRole('status');
    expect(await status.textContent()).toBe('');
    await status.evaluate((el) => el.setAttribute('data-watched', ''));
    // A lower cap: raising one asks for the wallet's passphrase first (decision 0022).
    await caps.getByLabel('Per day (USD)').fill('15');
    await caps.getByRole('button', { name: 'Save caps' }).click();
    await caps.locator('[role="status"][data-watched]', { hasText: 'Saved.' }).waitFor();
  });

  it('marks a field invalid and describes it by its error, and only while it is wrong', async () => {
    const projectId = page.getByRole('textbox', { name: 'WalletConnect project id' });
    await projectId.fill('not-a-project-id');
    expect(await projectId.getAttribute('aria-invalid')).toBe('true');
    expect(await description(projectId)).toEqual({
      role: 'status',
      text: 'A WalletConnect project id is 32 hexadecimal characters.',
    });
    await projectId.fill('');
    expect(await projectId.getAttribute('aria-invalid')).toBeNull();

    const key = page.getByRole('textbox', { name: 'Private key', exact: true });
    const passphrase = page.getByRole('textbox', { name: 'New passphrase for Intel Desk', exact: true });
    await key.fill('0x1234');
    await passphrase.fill('a passphrase');
    await page.getByRole('button', { name: 'Import wallet' }).click();
    await page.getByText('A private key is 64 hexadecimal characters.').waitFor();
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    expect(await description(key)).toEqual({
      role: 'status',
      text: 'A private key is 64 hexadecimal characters.',
    });
    expect(await passphrase.getAttribute('aria-invalid')).toBeNull();
  });

  it('groups the import choice under a legend, with names of its own', async () => {
    const group = page.getByRole('group', { name: 'Import from' });
    expect(await group.getByRole('radio').count()).toBe(2);
    expect(await page.getByRole('radio', { name: /private key/i }).count()).toBe(0);
  });
});
