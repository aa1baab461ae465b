/**
 * Staff editing a dossier in browser mode: open, edit a post, see the change, save, reload, see it kept; and
 * the service really holds the edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bundleSchema } from '../src/shared/wire';
import { pageState, shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { shotAt } from './shot-widths';
import { AXE_SOURCE, audit } from './axe';

const SECRET = 'e2e-dossier-secret-41c2';
let fx: DeskFixture;
let page: Page;
let handle: string;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 3 }, librarySecret: SECRET },
  });
  handle = (await fx.desk.core.handlers['shelf.list']({})).entries[0]!.username;
  page = fx.page;
});

afterAll(() => fx?.close());

/** Opens the handle's dossier; the secret the first test enters in Settings is set here when it is not. */
async function openDossier(): Promise<void> {
  const core = fx.desk.core.handlers;
  if (!(await core['settings.get']({})).librarySecretSet) {
    await core['settings.setLibrarySecret']({ secret: SECRET });
  }
  await page.getByRole('link', { name: 'Dossiers', exact: true }).click();
  // The screen with no handle first: after a reload the app may still be settling on the route it restored,
  // and a handle typed into the screen it then replaces would be lost.
  await page.locator('#dossier-title', { hasText: /^Dossiers$/ }).waitFor();
  await page.getByLabel('Handle to open').fill(handle);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.locator('#dossier-title', { hasText: `@${handle}` }).waitFor();
  await page.getByRole('tab', { name: 'Posts' }).click();
  await page.getByLabel('Post 1 text').waitFor();
}

describe('dossier editor', () => {
  it('asks for the library secret first, without ever showing it', async () => {
    await page.getByRole('link', { name: 'Dossiers', exact: true }).click();
    await page.getByText('Dossiers need the library secret.').waitFor();
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    await page
      .getByLabel(/library secret/i)
      .first()
      .fill(SECRET);
    await page.getByRole('button', { name: /save secret|set secret|save the secret/i }).click();
    await page
      .getByText(/accepted/i)
      .first()
      .waitFor();
    expect(await pageState(page)).not.toContain(SECRET);
  });

  it('edits a post, shows the change, saves, and finds it again after a reload', async () => {
    await openDossier();
    await shot(page, 'dossier-01-open');
    const edited = `Edited in the e2e test at ${new Date().toISOString()}`;
    await page.getByLabel('Post 1 text').fill(edited);
    await page.getByText(/Draft kept at/).waitFor();
    await page.getByRole('button', { name: /Review and save \(1 change\)/ }).click();
    const change = page.locator('[data-testid="dossier-diff"]');
    await change.waitFor();
    expect(await change.textContent()).toContain(edited);
    await shot(page, 'dossier-02-diff');
    await page.getByRole('button', { name: 'Save to the service' }).click();
    await page.getByText(/^Saved\. The service now holds/).waitFor();
    // Saved: in the success colour, and the kept draft's note is gone with the draft.
    expect(await page.getByTestId('dossier-notice').getAttribute('class')).toContain('notice-ok');
    expect(await page.getByText(/Draft kept at/).count()).toBe(0);
    expect(await page.locator('#dossier-title').textContent()).toMatch(/^Dossiers: @/);
    await shotAt(page, 'dossier-saved');

    const stored = bundleSchema.parse(
      await (
        await fetch(`${fx.stack.baseUrl}/api/intel/bundle?username=${handle}`, {
          headers: { Authorization: `Bearer ${SECRET}` },
        })
      ).json(),
    );
    // The editor lists posts oldest first, so "Post 1" is the earliest post, wherever it sits in the bundle.
    const earliest = [...stored.posts].sort((a, b) =>
      String(a['createdAt']).localeCompare(String(b['createdAt'])),
    )[0];
    expect(earliest?.['text']).toBe(edited);

    await page.reload();
    await openDossier();
    expect(await page.getByLabel('Post 1 text').inputValue()).toBe(edited);
    await shot(page, 'dossier-03-after-reload');
  });

  it('keeps an unsaved draft across a restart of the desk', async () => {
    await openDossier();
    await page.getByLabel('Post 2 text').fill('draft that was never saved');
    await page.getByText(/Draft kept at/).waitFor();
    await fx.restart();
    page = fx.page;
    await openDossier();
    // A new window after the restart: the kept draft is offered, not taken as this window's own.
    const offered = page.getByTestId('dossier-offered-draft');
    await offered.waitFor();
    expect(await page.getByLabel('Post 2 text').inputValue()).not.toBe('draft that was never saved');
    await offered.getByRole('button', { name: 'Continue those edits here' }).click();
    expect(await page.getByLabel('Post 2 text').inputValue()).toBe('draft that was never saved');
    await page.getByText(/Draft kept at/).waitFor();
    // This window's own draft now: a reload restores it without asking.
    await page.reload();
    await openDossier();
    await page.getByText('Restored your unsaved draft.').waitFor();
    expect(await page.getByLabel('Post 2 text').inputValue()).toBe('draft that was never saved');
    await page.getByRole('button', { name: 'Discard changes' }).click();
  });

  it('keeps a tab’s unsaved edit out of another tab, and never calls your own edit theirs', async () => {
    // Two tabs of one browser window: one context, so they share what tabs share (BroadcastChannel).
    const context = await fx.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const first = page;
    await context.addInitScript({ path: AXE_SOURCE });
    const tabA = await context.newPage();
    await tabA.goto(fx.desk.host.url);
    page = tabA;
    await openDossier();
    const edit = `tab A's edit ${Date.now()}`;
    await tabA.getByLabel('Post 1 text').fill(edit);
    await tabA.getByText(/Draft kept at/).waitFor();

    const tabB = await context.newPage();
    try {
      await tabB.goto(fx.desk.host.url);
      page = tabB;
      await openDossier();
      // Tab B starts from the service's copy; A's edit is offered, named as not its own, not shown as B's.
      const offered = tabB.getByTestId('dossier-offered-draft');
      await offered.filter({ hasText: 'in another window' }).waitFor();
      expect(await tabB.getByLabel('Post 1 text').inputValue()).not.toBe(edit);
      // Each tab says the other has the dossier open, while it happens.
      await tabB
        .getByTestId('dossier-elsewhere')
        .filter({ hasText: 'also open in another window' })
        .waitFor();
      await tabA
        .getByTestId('dossier-elsewhere')
        .filter({ hasText: 'also open in another window' })
        .waitFor();
      expect(await audit(tabB, 'dossier offered from another tab')).toEqual([]);
      await shotAt(tabB, 'dossier-other-tab');

      // B takes A's edits on purpose and saves them.
      await offered.getByRole('button', { name: 'Continue those edits here' }).click();
      expect(await tabB.getByLabel('Post 1 text').inputValue()).toBe(edit);
      await tabB.getByRole('button', { name: /Review and save \(1 change\)/ }).click();
      await tabB.getByRole('button', { name: 'Save to the service' }).click();
      await tabB.getByText(/^Saved\. The service now holds/).waitFor();
      await tabA.getByTestId('dossier-elsewhere').filter({ hasText: 'Another window saved' }).waitFor();

      // A saves its copy: the service moved on, and the conflict screen does not list A's edit as theirs.
      await tabA.getByRole('button', { name: /Review and save \(1 change\)/ }).click();
      await tabA.getByRole('button', { name: 'Save to the service' }).click();
      await tabA.getByTestId('dossier-conflict').waitFor();
      expect(await tabA.getByTestId('their-changes').count()).toBe(0);
      expect(await tabA.getByTestId('dossier-conflict').textContent()).toContain(
        'Nothing that is not in your copy too.',
      );
      expect(await tabA.getByTestId('shared-changes').textContent()).toContain(edit);
      expect(await audit(tabA, 'conflict with own edit')).toEqual([]);
      await shotAt(tabA, 'dossier-conflict-own-edit');
      await tabA.getByRole('button', { name: 'Back to my copy' }).click();
    } finally {
      page = first;
      await context.close();
    }
  });
});
