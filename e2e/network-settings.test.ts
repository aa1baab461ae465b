/**
 * Settings → Network (decision 0046) in real Chromium: a proxy with credentials is saved and shown masked (the
 * password never reaches the page, not even after a reload), and fields the contract would refuse are said in
 * place; a CA file core cannot read is refused with core's sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 } },
  });
  await fx.page.getByRole('link', { name: 'Settings', exact: true }).click();
});

afterAll(() => fx?.close());

const network = async () => (await fx.desk.core.handlers['settings.get']({})).network;

describe('the proxy', () => {
  it('refuses a SOCKS address in place, and saves an http proxy whose password never reaches the page', async () => {
    await fx.page.getByRole('radio', { name: 'This proxy' }).check();
    const address = fx.page.getByLabel('Proxy address');
    await address.fill('socks5://127.0.0.1:1080');
    await expect
      .poll(() => fx.page.getByRole('status').filter({ hasText: 'proxies only' }).count())
      .toBeGreaterThan(0);
    expect(await fx.page.getByRole('button', { name: 'Save proxy' }).isDisabled()).toBe(true);

    await address.fill('http://proxy-user-7:s3cret@127.0.0.1:3128');
    await fx.page.getByLabel('No proxy for').fill('.corp.example, 10.0.0.0/8');
    await fx.page.getByRole('button', { name: 'Save proxy' }).click();
    await expect
      .poll(async () => (await network()).proxy)
      .toEqual({
        mode: 'manual',
        url: 'http://•••@127.0.0.1:3128',
        noProxy: ['.corp.example', '10.0.0.0/8'],
      });
    // Core has it before the page has read core's answer: the field empties when the page does.
    await expect.poll(() => address.inputValue()).toBe('');
    await expect.poll(() => address.getAttribute('placeholder')).toContain('http://•••@127.0.0.1:3128');

    await fx.page.reload();
    await fx.page.getByRole('link', { name: 'Settings', exact: true }).click();
    expect(await fx.page.getByRole('radio', { name: 'This proxy' }).isChecked()).toBe(true);
    expect(await fx.page.content()).not.toMatch(/s3cret|proxy-user-7/);
  });
});

describe('the CA certificates file', () => {
  it('asks for a full path in place, and shows core refusing a file of no certificates', async () => {
    const field = fx.page.getByLabel('CA certificates file');
    await field.fill('corporate-ca.pem');
    await expect
      .poll(() => fx.page.getByRole('status').filter({ hasText: 'full path' }).count())
      .toBeGreaterThan(0);

    const notPem = path.join(fx.dataDir, 'not-a-certificate.pem');
    writeFileSync(notPem, 'not a certificate\n');
    await field.fill(notPem);
    await fx.page.getByRole('button', { name: 'Use this file' }).click();
    await expect
      .poll(() => fx.page.getByRole('status').filter({ hasText: 'holds no PEM certificate' }).count())
      .toBeGreaterThan(0);
    expect((await network()).caFile).toBeNull();
  });
});
