/** Settings → Wallet sets how long an unlocked wallet stays unlocked unused (decision 0029), in real Chromium. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 } },
  });
  await fx.page.getByRole('link', { name: 'Settings', exact: true }).click();
});

afterAll(() => fx?.close());

describe('the wallet lock time', () => {
  it('shows 15 minutes at first, and saves another', async () => {
    const field = fx.page.getByLabel('Lock the wallet after (minutes unused)');
    expect(await field.inputValue()).toBe('15');
    // The demo unlocks its own wallet, and auto-lock is off there: the form says so rather than seem to work.
    expect(await fx.page.getByTestId('auto-lock-demo').textContent()).toMatch(/^Off in the demo/);
    await field.fill('5');
    await fx.page.getByRole('button', { name: 'Save lock time' }).click();
    await expect.poll(() => fx.desk.core.handlers['settings.get']({}).then((s) => s.autoLockMinutes)).toBe(5);
  });

  it('does not save a time the field does not allow', async () => {
    const field = fx.page.getByLabel('Lock the wallet after (minutes unused)');
    await field.fill('0');
    await fx.page.getByRole('button', { name: 'Save lock time' }).click();
    expect(await field.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    expect((await fx.desk.core.handlers['settings.get']({})).autoLockMinutes).toBe(5);
  });
});
