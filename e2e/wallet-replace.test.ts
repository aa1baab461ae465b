/**
 * Settings → Import a wallet over the demo's: a dialog names both addresses and nothing changes until the
 * person chooses to replace it; then the demo's keystore is kept in backups/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

const PASSPHRASE = 'quartz lantern meadow oxide';
let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 }, buyerCount: 2 },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
});

afterAll(() => fx?.close());

describe('importing a wallet over the one set up', () => {
  it('asks in a dialog naming both addresses, and replaces only when chosen', async () => {
    const { page, stack } = fx;
    const demo = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const other = privateKeyToAccount(stack.buyerKeys[1]!).address;
    const walletFile = path.join(fx.dataDir, 'wallet.json');
    const before = readFileSync(walletFile);
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    const importOther = async () => {
      await page.getByRole('textbox', { name: 'Private key', exact: true }).fill(stack.buyerKeys[1]!);
      await page.getByLabel('New passphrase for Intel Desk').fill(PASSPHRASE);
      await page.getByRole('button', { name: 'Import wallet' }).click();
    };

    await importOther();
    const dialog = page.getByRole('dialog', { name: 'Replace the wallet?' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('wallet-current').textContent()).toBe(demo);
    expect(await dialog.getByTestId('wallet-incoming').textContent()).toBe(other);
    await dialog.getByRole('button', { name: 'Keep the current wallet' }).click();
    await page.getByText(`Nothing was imported; ${demo} is still the wallet.`).waitFor();
    expect(readFileSync(walletFile).equals(before)).toBe(true);
    expect((await fx.desk.core.handlers['wallet.status']({})).address).toBe(demo);

    await importOther();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Replace the wallet' }).click();
    await page.getByText('Wallet imported and unlocked.').waitFor();
    expect((await fx.desk.core.handlers['wallet.status']({})).address).toBe(other);
    const kept = readdirSync(path.join(fx.dataDir, 'backups')).filter((f) => f.startsWith('wallet-'));
    expect(kept).toEqual([expect.stringContaining(demo)]);
    expect(readFileSync(path.join(fx.dataDir, 'backups', kept[0]!)).equals(before)).toBe(true);
  });
});
