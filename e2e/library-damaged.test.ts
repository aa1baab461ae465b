/**
 * A library file damaged while the app runs, deep in the reports where a start no longer reads: the first
 * screen that meets the damage says so in words, the window's notice says what happens next, and the next start
 * sets the file aside and puts the newest good backup in its place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { damageReportsPage } from '../test/damage-library';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 2, minReportsPerHandle: 30, maxReportsPerHandle: 30 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
});

afterAll(() => fx?.close());

describe('a library damaged while the app runs', () => {
  it('is said in words, then replaced by the newest backup at the next start', async () => {
    const core = fx.desk.core;
    for (const entry of (await core.handlers['shelf.list']({})).entries) {
      const quote = await core.handlers['quote.get']({ handle: entry.username, selection: { kind: 'all' } });
      await core.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
    }
    await core.handlers['library.backup']({});
    damageReportsPage(path.join(fx.dataDir, 'desk.db'), 'last');

    const { page } = fx;
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    await page
      .getByText(/The library file is damaged/)
      .first()
      .waitFor();
    const notice = page.getByRole('alert').filter({ hasText: 'The library file is damaged' }).first();
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/Quit and start Intel Desk again/);
    await shot(page, 'library-damaged');

    await fx.restart();
    const recovered = fx.page.getByRole('alert').filter({ hasText: 'could not be used' }).first();
    await recovered.waitFor();
    expect(await recovered.textContent()).toMatch(/newest good backup .* was restored: 60 reports came back/);
    await shot(fx.page, 'library-damaged-restored');
  });
});
