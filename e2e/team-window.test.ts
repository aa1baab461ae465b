/**
 * The team library in the window, in real Chromium against a real PostgreSQL cluster: Settings → Team joins
 * with a URL whose password never comes back to the page, shows the connection and the team's caps (dated
 * when the team is unreachable) and leaves with a confirmation; the Library marks the team's reports with who
 * bought them; Purchases shows the team's spend against its caps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { ARTIFACTS, pageState, recordRpc, shot } from './browser';
import { addAxe, audit } from './axe';
import { deskWithWallet, firstHandle, tempDir } from '../test/core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../scripts/pg-cluster';
import { createTestTeam, type TestTeam } from '../test/team/team-helpers';
import type { DeskCore } from '../src/core';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { filterAndOpen, openShelf } from './flow';

const runs = postgresBin() !== null;
let fx: DeskFixture;
let cluster: PgCluster;
let team: TestTeam;
let peer: DeskCore;
const folders: { dir: string; remove(): void }[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

beforeAll(async () => {
  if (!runs) return;
  cluster = startCluster();
  fx = await openDeskFixture({
    stack: { seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 }, buyerCount: 2 },
    demoKey: (stack) => stack.buyerKeys[0]!,
    beforeLoad: addAxe,
  });
  await fx.page.getByRole('button', { name: 'Close' }).first().click();
  team = await createTestTeam(cluster, ['alice', 'bob'], folder('desk-team-admin-'), [
    '--daily-cap',
    '1',
    '--per-purchase-cap',
    '0.25',
  ]);
  // Bob's desk, beside the window's, buys two reports for the team.
  peer = (await deskWithWallet(fx.stack, folder('desk-team-bob-'), 1, { timeoutMs: 5_000 })).desk;
  await peer.handlers['team.join']({ url: team.memberUrl('bob') });
  const { handle, ids } = await firstHandle(fx.stack);
  const quote = await peer.handlers['quote.get']({
    handle,
    selection: { kind: 'ids', ids: ids.slice(0, 2) },
  });
  const bought = await peer.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
  });
  if (bought.status !== 'completed') throw new Error(`bob's purchase: ${bought.status}`);
}, 180_000);

afterAll(async () => {
  await peer?.close().catch(() => undefined);
  await fx?.close();
  await cluster?.stop();
  for (const made of folders) made.remove();
});

/** The element alone, for the README's pictures. */
async function cropShot(locator: Locator, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await locator.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Bob's desk takes the team's reservation of these reports (as its purchaser does), paid or still open. */
async function bobReserves(handle: string, reportIds: string[], paid: boolean): Promise<void> {
  const bob = new pg.Client({ connectionString: team.memberUrl('bob') });
  await bob.connect();
  try {
    const purchaseId = randomUUID();
    await bob.query(
      `SELECT intel_desk.reserve_purchase($1, $2, $3, $4, 10000, 'eip155:31337', '0x0', '0x0', $5,
         now() + interval '1 hour', 'bob-desk', 'bob', false, false)`,
      [purchaseId, fx.stack.baseUrl, handle, reportIds, randomUUID()],
    );
    if (paid) await bob.query("SELECT intel_desk.finish_purchase($1, 'paid', NULL)", [purchaseId]);
  } finally {
    await bob.end();
  }
}

const nav = (name: string) => fx.page.getByRole('link', { name, exact: true }).first().click();

describe.skipIf(!runs)('the team in the window', () => {
  it('joins from Settings without the password ever coming back to the page', async () => {
    const answers = recordRpc(fx.page);
    await nav('Settings');
    const card = fx.page.getByTestId('team-card');
    const url = team.memberUrl('alice');
    const password = decodeURIComponent(/:([^:@/]+)@/.exec(url.replace(/^postgres(ql)?:\/\//, ''))![1]!);
    // A URL that is not PostgreSQL is refused in core's words, nothing stored.
    await card.getByLabel('Team database URL').fill('https://example.com/team');
    await card.getByRole('button', { name: 'Join the team' }).click();
    await expect.poll(() => card.getByRole('status').first().textContent()).toMatch(/postgres/i);
    expect(await card.textContent()).not.toMatch(/at .*\.ts:\d+/);

    await card.getByLabel('Team database URL').fill(url);
    await card.getByLabel('Team database URL').press('Enter');
    await card.getByTestId('team-joined').waitFor();
    const shown = await card.getByTestId('team-url').textContent();
    expect(shown).not.toContain(password);
    expect(shown).toMatch(/^postgres(ql)?:\/\/alice_/);
    expect(await card.getByTestId('team-connection').textContent()).toBe('Reachable');
    await expect.poll(() => card.getByTestId('team-spend').textContent()).toMatch(/of its \$1\.00 daily cap/);
    expect(await card.getByTestId('team-spend').textContent()).toMatch(/per purchase cap \$0\.25/);
    expect(await pageState(fx.page)).not.toContain(password);
    expect((await answers.all()).join('\n')).not.toContain(password);
    await shot(fx.page, 'team-settings');
    await cropShot(card, 'team-settings-card');
    expect(await audit(fx.page, 'team joined, light')).toEqual([]);
    await fx.page.emulateMedia({ colorScheme: 'dark' });
    expect(await audit(fx.page, 'team joined, dark')).toEqual([]);
    await cropShot(card, 'team-settings-card-dark');
    await fx.page.emulateMedia({ colorScheme: 'light' });
  });

  it("marks the team's reports in the Library with who bought them", async () => {
    await nav('Library');
    const mark = fx.page.getByTestId('team-mark').first();
    await mark.waitFor();
    expect(await mark.textContent()).toMatch(/^Team · bought by bob_/);
    expect(await fx.page.getByTestId('team-mark').count()).toBe(2);
    await cropShot(fx.page.locator('section').first(), 'team-library');
    // The report itself says so too.
    await mark.locator('xpath=ancestor::tr').getByRole('button').first().click();
    await fx.page.locator('#report-title').waitFor();
    expect(await fx.page.getByTestId('team-mark').textContent()).toMatch(/^Team · bought by bob_/);
  });

  it("shows the team's spend against its caps at the top of Purchases", async () => {
    await nav('Purchases');
    const line = fx.page.getByTestId('team-spend');
    await line.waitFor();
    expect(await line.textContent()).toMatch(/^Team research .* today: \$[\d.]+ of its \$1\.00 daily cap/);
    await shot(fx.page, 'team-purchases');
  });

  it('offers to sync with the team when a purchase is refused as the team owns the reports', async () => {
    const { handle, ids } = await firstHandle(fx.stack);
    await openShelf(fx.page);
    await filterAndOpen(fx.page, handle);
    const panel = fx.page.locator('aside[aria-label="Purchase"]');
    await panel.getByRole('button', { name: /^Buy 2 reports for / }).waitFor();
    // Meanwhile bob's desk paid for those two reports and has not published them yet.
    await bobReserves(handle, ids.slice(2, 4), true);
    await panel.getByRole('button', { name: /^Buy 2 reports for / }).click();
    await fx.page.getByRole('button', { name: /^Pay \$/ }).click();
    const outcome = panel.getByTestId('purchase-outcome');
    await outcome.waitFor();
    expect(await outcome.textContent()).toMatch(
      /^The team already owns 2 of these reports, bought by bob \(desk bob-desk\); nothing was signed\. Press “Sync with the team”/,
    );
    await panel.getByRole('button', { name: 'Sync with the team' }).click();
    await expect
      .poll(() => panel.getByTestId('team-owned-sync').getByRole('status').textContent())
      .toMatch(/^Synced: nothing new from the team yet/);
    await cropShot(panel, 'team-owned-sync');
  });

  it('says who is buying reports of the choice for the team right now, with nothing to sync', async () => {
    const first = (await firstHandle(fx.stack)).handle;
    const shelf = await fx.desk.core.handlers['shelf.list']({});
    const handle = shelf.entries.map((entry) => entry.username).find((name) => name !== first)!;
    const menu = await fx.desk.core.handlers['menu.get']({ handle });
    const ids = menu.reports.map((report) => report.id);
    await openShelf(fx.page);
    await filterAndOpen(fx.page, handle);
    const panel = fx.page.locator('aside[aria-label="Purchase"]');
    await panel.getByRole('button', { name: /^Buy 4 reports for / }).waitFor();
    await bobReserves(handle, ids.slice(0, 2), false);
    await panel.getByRole('button', { name: /^Buy 4 reports for / }).click();
    await fx.page.getByRole('button', { name: /^Pay \$/ }).click();
    const outcome = panel.getByTestId('purchase-outcome');
    await outcome.waitFor();
    expect(await outcome.textContent()).toMatch(
      /^bob \(desk bob-desk\) is buying 2 of these reports for the team right now; nothing was signed/,
    );
    expect(await panel.getByTestId('team-owned-sync').count()).toBe(0);
  });

  it("marks the menu and the quote with the team's word before Buy, and Buy waits", async () => {
    const { handle, ids } = await firstHandle(fx.stack);
    await openShelf(fx.page);
    await filterAndOpen(fx.page, handle);
    // A fresh page: the quote is asked for now, after bob's purchases.
    await fx.page.reload();
    const panel = fx.page.locator('aside[aria-label="Purchase"]');
    const note = panel.getByTestId('team-quote');
    await expect
      .poll(() => note.first().textContent(), { timeout: 20_000 })
      .toMatch(
        /^The team already owns 2 of these reports, bought by bob \(desk bob-desk\), not in your Library yet\. Buy would be refused before anything is signed/,
      );
    const buy = panel.getByRole('button', { name: /^Buy 2 reports for / });
    expect(await buy.isDisabled()).toBe(true);
    expect(await panel.getByRole('button', { name: 'Sync with the team' }).count()).toBe(1);
    // The rows say it too: the two pulled from the team, the two it owns that are not here yet.
    const rows = fx.page.locator('table.report-menu tbody tr');
    const markOf = async (id: string) => {
      const position = (await fx.desk.core.handlers['menu.get']({ handle })).reports.findIndex(
        (r) => r.id === id,
      );
      return rows.nth(position).getByTestId('menu-team-mark').textContent();
    };
    for (const id of ids.slice(0, 2)) expect(await markOf(id)).toMatch(/^Owned · the team’s, bought by bob_/);
    for (const id of ids.slice(2, 4))
      expect(await markOf(id)).toBe('Owned by the team · bought by bob, not in your Library yet');
    await cropShot(fx.page.locator('section').first(), 'team-menu');
    expect(await audit(fx.page, 'team menu')).toEqual([]);
    await fx.page.emulateMedia({ colorScheme: 'dark' });
    expect(await audit(fx.page, 'team menu, dark')).toEqual([]);
    await cropShot(fx.page.locator('section').first(), 'team-menu-dark');
    await fx.page.emulateMedia({ colorScheme: 'light' });

    // Another handle, two of whose reports bob is buying: those rows say so, and so does the quote.
    const shelf = await fx.desk.core.handlers['shelf.list']({});
    const other = shelf.entries.map((entry) => entry.username).find((name) => name !== handle)!;
    await openShelf(fx.page);
    await filterAndOpen(fx.page, other);
    await fx.page.reload();
    await expect
      .poll(() => note.first().textContent(), { timeout: 20_000 })
      .toMatch(
        /^bob \(desk bob-desk\) is buying 2 of these reports for the team right now\. Buy would be refused/,
      );
    expect(await panel.getByRole('button', { name: /^Buy 4 reports for / }).isDisabled()).toBe(true);
    const buying = fx.page.getByTestId('menu-team-mark');
    expect(await buying.count()).toBe(2);
    expect(await buying.first().textContent()).toBe('Being bought by bob (desk bob-desk) for the team');
    await cropShot(panel, 'team-quote-buying');
  });

  it('says when the team is unreachable, with the caps as they were last read', async () => {
    cluster.crash();
    try {
      await nav('Settings');
      await fx.page.reload();
      const card = fx.page.getByTestId('team-card');
      await expect
        .poll(() => card.getByTestId('team-connection').textContent(), { timeout: 20_000 })
        .toMatch(/^Unreachable: The team database/);
      expect(await card.getByTestId('team-spend-dated').textContent()).toMatch(/^As of .*cannot be reached/);
      await cropShot(card, 'team-settings-unreachable');
      expect(await audit(fx.page, 'team unreachable')).toEqual([]);
      await nav('Purchases');
      await expect
        .poll(() => fx.page.getByTestId('team-spend-dated').textContent(), { timeout: 20_000 })
        .toMatch(/^As of /);
      // A menu still shows the service's price, and says buying needs the team.
      const { handle } = await firstHandle(fx.stack);
      await openShelf(fx.page);
      await filterAndOpen(fx.page, handle);
      const panel = fx.page.locator('aside[aria-label="Purchase"]');
      await expect
        .poll(() => panel.getByTestId('team-quote').first().textContent(), { timeout: 20_000 })
        .toMatch(/^Buying needs the team, and it did not answer: The team database/);
      expect(await panel.getByRole('button', { name: /^Buy 2 reports for \$/ }).isDisabled()).toBe(true);
      expect(await panel.getByRole('button', { name: 'Ask the team again' }).count()).toBe(1);
      await cropShot(panel, 'team-quote-unreachable');
    } finally {
      cluster.start();
    }
  });

  it('leaves after a confirmation that says the pulled reports stay readable', async () => {
    await nav('Settings');
    await fx.page.reload();
    const card = fx.page.getByTestId('team-card');
    await expect
      .poll(() => card.getByTestId('team-connection').textContent(), { timeout: 20_000 })
      .toBe('Reachable');
    await card.getByRole('button', { name: 'Leave the team…' }).click();
    const dialog = fx.page.getByRole('dialog', { name: 'Leave the team?' });
    expect(await dialog.textContent()).toMatch(/2 reports pulled from the team stay in your Library/);
    expect(await audit(fx.page, 'leave dialog')).toEqual([]);
    // Cancel has the focus: Enter does not leave.
    await fx.page.keyboard.press('Escape');
    expect(await card.getByTestId('team-joined').count()).toBe(1);
    await card.getByRole('button', { name: 'Leave the team…' }).click();
    await dialog.getByRole('button', { name: 'Leave the team' }).click();
    await card.getByLabel('Team database URL').waitFor();
    expect(await card.textContent()).toMatch(
      /Left the team\. The reports pulled from it stay in your Library/,
    );
    expect(await fx.desk.core.handlers['team.status']({})).toEqual({ joined: false });
    await nav('Library');
    await fx.page.getByTestId('team-mark').first().waitFor();
  });
});
