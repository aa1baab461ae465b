/** Settings → Library: the last backup's time, and "Back up now" writing a copy into backups/. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
});

afterAll(() => fx?.close());

describe('Settings → Library', () => {
  it('shows the last backup and backs up now', async () => {
    const { page } = fx;
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    const last = page.getByTestId('last-backup');
    await last.filter({ hasText: 'No backup yet.' }).waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByText('Backed up.').waitFor();
    await last.filter({ hasText: /^Last backup .*; 1 kept in / }).waitFor();
    const copies = readdirSync(path.join(fx.dataDir, 'backups')).filter((f) => f.endsWith('-manual.db'));
    expect(copies).toHaveLength(1);
  });

  it('restores a copy from backups/ after a confirm step, and says what it kept (browser mode: no file dialog)', async () => {
    const { page } = fx;
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    await expect.poll(() => page.getByRole('button', { name: 'Restore from a file…' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Restore…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Restore the library?' });
    await confirm.getByText(/This desk's settings, spending caps, payee pins, chain RPC/).waitFor();
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    const summary = page.getByTestId('restore-backup-summary');
    await summary.getByText(/^Restored the library from .*-manual\.db: /).waitFor();
    await summary.getByText(/settings, spending caps, payee pins and chain RPC were kept/).waitFor();
    const safety = readdirSync(path.join(fx.dataDir, 'backups')).filter((f) => f.endsWith('-restore.db'));
    expect(safety).toHaveLength(1);
  });
});
