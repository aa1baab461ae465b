/**
 * The Library's query language in the browser: type a query and see its matches, see a syntax error marked
 * under the box, save the query, reload, run it from the side panel, tag a report and find it with tag:, and
 * type tags fast without losing a key.
 * Reports are bought over the real service and chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAll } from '../test/core/helpers';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { shotAt } from './shot-widths';

let fx: DeskFixture;
let handle: string;
let owned: number;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 2, minReportsPerHandle: 3, maxReportsPerHandle: 4 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  const core = fx.desk.core;
  const entries = (await core.handlers['shelf.list']({})).entries;
  for (const entry of entries) expect((await buyAll(core, entry.username)).outcome.status).toBe('completed');
  handle = entries[0]!.username.toLowerCase();
  owned = (await core.handlers['library.list']({ handle })).items.length;
});

afterAll(() => fx?.close());

const hits = () => fx.page.locator('[data-testid="search-hits"] li');

describe('asking the library in the app', () => {
  it('searches with the language, marks a syntax error, saves the query and runs it after a reload', async () => {
    const { page } = fx;
    const box = page.getByLabel('Search owned reports');
    await page.getByRole('link', { name: 'Library', exact: true }).first().click();
    await box.fill(`handle:${handle} posts>0 (posted OR NOT posted)`);
    await expect.poll(() => hits().count()).toBe(owned);
    expect(await page.getByTestId('search-count').textContent()).toContain(`${owned} match`);

    await box.fill(`handle:${handle} posts>`);
    const error = page.getByTestId('search-error');
    await error.waitFor();
    expect(await error.getByRole('alert').textContent()).toBe(
      `Expected a number after "posts>" at column ${handle.length + 14}.`,
    );
    expect(await error.locator('.caret').textContent()).toBe('^');

    await box.fill(`handle:${handle}`);
    await expect.poll(() => hits().count()).toBe(owned);
    await page.getByLabel('Name for this search').fill('First handle');
    await page.getByRole('button', { name: 'Save search' }).click();
    const saved = page.getByRole('complementary', { name: 'Saved searches' });
    await saved.getByRole('button', { name: 'First handle', exact: true }).waitFor();

    await page.reload();
    await page.getByRole('link', { name: 'Library', exact: true }).first().click();
    const run = page.getByRole('complementary', { name: 'Saved searches' }).getByRole('button', {
      name: 'First handle',
      exact: true,
    });
    await run.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue()).toBe(`handle:${handle}`);
    await expect.poll(() => hits().count()).toBe(owned);
  });

  it('tags a report on its screen, keeps the tag and note over a reload, and finds it with tag:', async () => {
    const { page } = fx;
    // The handle's reports found first, as the search above leaves them, so this test also runs alone.
    await page.getByRole('link', { name: 'Library', exact: true }).first().click();
    await page.getByLabel('Search owned reports').fill(`handle:${handle}`);
    await expect.poll(() => hits().count()).toBe(owned);
    await hits().first().getByRole('button').click();
    const tags = page.getByRole('region', { name: 'Your tags and note' });
    await tags.getByLabel('Add a tag').fill('Watch-List');
    await tags.getByLabel('Add a tag').press('Enter');
    await tags.getByRole('listitem').filter({ hasText: '#watch-list' }).waitFor();
    await tags.getByLabel('Note').fill('Check the grid figures.');
    expect(await tags.getByTestId('note-state').textContent()).toBe('Unsaved changes');
    await tags.getByRole('button', { name: 'Save note' }).click();
    await expect.poll(() => tags.getByTestId('note-state').textContent()).toMatch(/^Saved /);

    await page.reload();
    await page.getByRole('link', { name: 'Library', exact: true }).first().click();
    await page.getByLabel('Search owned reports').fill('tag:watch-list note:grid');
    await expect.poll(() => hits().count()).toBe(1);
    expect(await hits().first().getByTestId('item-tags').textContent()).toContain('#watch-list');
    await hits().first().getByRole('button').click();
    const again = page.getByRole('region', { name: 'Your tags and note' });
    await expect.poll(() => again.getByLabel('Note').inputValue()).toBe('Check the grid figures.');
    await again.getByRole('button', { name: 'Remove tag watch-list' }).click();
    await expect.poll(() => again.getByRole('listitem').count()).toBe(0);
  });

  it('keeps every letter typed right after Enter in the tag field', async () => {
    const { page } = fx;
    const tags = page.getByRole('region', { name: 'Your tags and note' });
    const field = tags.getByLabel('Add a tag');
    await field.focus();
    // One burst of keys, as a fast typist sends them: the next tag starts before core has stored the last.
    await page.keyboard.type('grid\nEnergy\nwind,solar\n');
    await expect
      .poll(async () =>
        (await tags.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s*×$/, '')),
      )
      .toEqual(expect.arrayContaining(['#grid', '#energy', '#wind', '#solar']));
    expect(await tags.getByRole('listitem').count()).toBe(4);
    expect(await field.inputValue()).toBe('');
  });

  it('offers model: when a model’s name alone finds nothing', async () => {
    const { page } = fx;
    const model = (await fx.desk.core.handlers['library.list']({ handle })).items[0]!.model;
    const expected = (await fx.desk.core.handlers['library.search']({ text: `model:"${model}"` })).count;
    await page.getByRole('link', { name: 'Library', exact: true }).first().click();
    const box = page.getByLabel('Search owned reports');
    await box.fill(model);
    const hint = page.getByTestId('search-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain(`Did you mean model:"${model}"?`);
    await shotAt(page, 'library-search-hint');
    await hint.getByRole('button', { name: `model:"${model}"` }).click();
    expect(await box.inputValue()).toBe(`model:"${model}"`);
    await expect.poll(() => hits().count()).toBe(expected);
    await box.fill('');
  });
});
