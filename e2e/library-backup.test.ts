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
});
