/**
 * A menu whose reports the library holds from another service (the demo started on another port, a service
 * that moved) says so, instead of offering them as if never bought.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../src/service/stack';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, openShelf, waitForPrice } from './flow';

const SEED = { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 };
let fx: DeskFixture;
let page: Page;
let moved: Stack;

beforeAll(async () => {
  fx = await openDeskFixture({ stack: { seed: SEED }, demoKey: (stack) => stack.buyerKeys[1]! });
  page = fx.page;
  // The same seed: the same handles and report ids, at another address on another chain.
  moved = await startStack({ seed: SEED, buyerCount: 2 });
});
afterAll(async () => {
  await fx?.close();
  await moved?.stop();
});

describe('reports owned at another service', () => {
  it('are named on the menu of the service in use', async () => {
    const core = fx.desk.core.handlers;
    const handle = (await core['shelf.list']({})).entries[0]!.username;
    const quote = await core['quote.get']({ handle, selection: { kind: 'all' } });
    const outcome = await core['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
    expect(outcome.status).toBe('completed');
    await core['settings.update']({ serviceUrl: moved.baseUrl });
    await page.reload();
    await openShelf(page);
    await filterAndOpen(page, handle);
    const note = page.getByTestId('owned-elsewhere');
    await note.waitFor();
    expect(await note.textContent()).toContain(
      `Your Library holds 2 reports of this menu bought from ${fx.stack.baseUrl}, another service than the one in use (${moved.baseUrl}).`,
    );
    // Still offered, at this service's price: the person decides.
    await waitForPrice(page, '$0.02');
    await shot(page, 'menu-owned-elsewhere');
  });
});
