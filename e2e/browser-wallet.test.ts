/**
 * An injected browser wallet (EIP-1193 on window.ethereum) buys a report: the page's provider forwards every
 * request to a viem account in the test, so the wallet sees exactly what Intel Desk asks it to sign, and core
 * never holds its key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { z } from 'zod';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { buy, filterAndOpen, waitForPrice } from './flow';
import { paidSuccessSchema } from '../src/shared/wire';
import { officialBuyer } from '../test/interop/official-client';
import { balanceOf } from '../test/core/helpers';

const DEMO_CHAIN_HEX = '0x7a69';

const typedDataSchema = z.object({
  domain: z.object({
    name: z.string(),
    version: z.string(),
    chainId: z.number(),
    verifyingContract: z.string(),
  }),
  primaryType: z.literal('TransferWithAuthorization'),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  message: z.object({
    from: z.string(),
    to: z.string(),
    value: z.string(),
    validAfter: z.string(),
    validBefore: z.string(),
    nonce: z.string(),
  }),
});
type SignedRequest = z.infer<typeof typedDataSchema>;

/** Installed before any page script: a minimal EIP-1193 provider whose requests go to the test. */
function installProvider(): void {
  const bridge = (window as unknown as { __walletBridge: (m: string, p: string) => Promise<string> })
    .__walletBridge;
  (window as unknown as { ethereum: unknown }).ethereum = {
    request: async ({ method, params }: { method: string; params?: unknown }) => {
      const answer = JSON.parse(await bridge(method, JSON.stringify(params ?? []))) as {
        result?: unknown;
        error?: { code: number; message: string };
      };
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
    on: () => undefined,
    removeListener: () => undefined,
  };
}

let fx: DeskFixture;
let page: Page;
let account: PrivateKeyAccount;
const calls: string[] = [];
const signed: SignedRequest[] = [];
const personalSigned: string[] = [];

async function answerWallet(method: string, paramsJson: string): Promise<string> {
  calls.push(method);
  const params = z.array(z.unknown()).parse(JSON.parse(paramsJson));
  switch (method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return JSON.stringify({ result: [account.address] });
    case 'eth_chainId':
      return JSON.stringify({ result: DEMO_CHAIN_HEX });
    case 'wallet_requestPermissions':
      return JSON.stringify({ result: [{ parentCapability: 'eth_accounts' }] });
    case 'personal_sign': {
      expect(String(params[1]).toLowerCase()).toBe(account.address.toLowerCase());
      const raw = z
        .string()
        .regex(/^0x[0-9a-fA-F]*$/)
        .parse(params[0]) as `0x${string}`;
      personalSigned.push(Buffer.from(raw.slice(2), 'hex').toString('utf8'));
      return JSON.stringify({ result: await account.signMessage({ message: { raw } }) });
    }
    case 'eth_signTypedData_v4': {
      expect(String(params[0]).toLowerCase()).toBe(account.address.toLowerCase());
      const request = typedDataSchema.parse(JSON.parse(String(params[1])));
      signed.push(request);
      const { EIP712Domain: _domain, ...types } = request.types;
      const signature = await account.signTypedData({
        domain: { ...request.domain, verifyingContract: request.domain.verifyingContract as `0x${string}` },
        types,
        primaryType: request.primaryType,
        message: request.message,
      });
      return JSON.stringify({ result: signature });
    }
    default:
      return JSON.stringify({
        error: { code: 4200, message: `The test wallet does not support ${method}.` },
      });
  }
}

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 4, minReportsPerHandle: 3, maxReportsPerHandle: 5 } },
    beforeLoad: async (fresh) => {
      await fresh.exposeFunction('__walletBridge', answerWallet);
      await fresh.addInitScript(installProvider);
    },
  });
  account = privateKeyToAccount(fx.stack.buyerKeys[1]!);
  page = fx.page;
});

afterAll(() => fx?.close());

/** Connects the injected wallet in Settings unless the page already shows it connected. */
async function connectBrowserWallet(): Promise<void> {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.locator('.wallet-panel').first().waitFor();
  const shown = page.locator(`[data-testid="wallet-address"][title="${account.address}"]`).first();
  if ((await shown.count()) === 0) await page.getByRole('button', { name: 'Use browser wallet' }).click();
  await shown.waitFor();
}

describe('an injected browser wallet', () => {
  it('connects from Settings; core learns only its address', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Use browser wallet' }).click();
    // Shown shortened, whole in its title.
    await page.locator(`[data-testid="wallet-address"][title="${account.address}"]`).first().waitFor();
    expect(await page.locator('.wallet-panel').first().textContent()).toContain('Browser wallet');
    expect(calls).toContain('eth_requestAccounts');
  });

  it('signs exactly the quoted TransferWithAuthorization, and the purchase completes', async () => {
    await connectBrowserWallet();
    const shelf = await fx.desk.core.handlers['shelf.list']({});
    const handle = shelf.entries[0]!.username;
    const menu = await fx.desk.core.handlers['menu.get']({ handle });
    await page.getByRole('link', { name: 'Shelf', exact: true }).click();
    await filterAndOpen(page, handle);
    const usd = `$${(menu.reportCount * 0.01).toFixed(2)}`;
    await waitForPrice(page, usd);
    await buy(page, usd);
    expect(await page.locator('[data-testid="purchase-outcome"]').textContent()).toContain(
      `Bought ${menu.reportCount} report${menu.reportCount === 1 ? '' : 's'} for ${usd}`,
    );
    await shot(page, 'browser-wallet-purchase');

    expect(signed).toHaveLength(1);
    const [request] = signed;
    expect(request!.domain).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: 31337,
      verifyingContract: expect.stringMatching(new RegExp(`^${fx.stack.asset}$`, 'i')),
    });
    expect(request!.message.from.toLowerCase()).toBe(account.address.toLowerCase());
    expect(request!.message.to.toLowerCase()).toBe(fx.stack.payTo.toLowerCase());
    expect(request!.message.value).toBe(String(menu.reportCount * 10_000));
    expect(request!.message.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    const ledger = await fx.desk.core.handlers['purchases.list']({});
    expect(ledger.purchases[0]).toMatchObject({ state: 'completed', payer: account.address });
  });
});

describe('restoring purchases with the injected wallet', () => {
  it('signs in with the wallet and brings back what it bought elsewhere, paying nothing', async () => {
    await connectBrowserWallet();
    // Bought on another machine: with the official x402 client, straight from the service.
    const shelf = await fx.desk.core.handlers['shelf.list']({});
    const handle = shelf.entries[1]!.username;
    const elsewhere = officialBuyer(account, {
      allowedAssets: [{ network: fx.stack.network, asset: fx.stack.asset }],
    });
    const paid = await elsewhere.fetch(
      `${fx.stack.baseUrl}/api/intel/reports?username=${handle}&select=all`,
      {
        headers: { Accept: 'application/json' },
      },
    );
    expect(paid.status).toBe(200);
    const bought = paidSuccessSchema.parse(await paid.json()).reports.map((r) => r.id);
    const balance = await balanceOf(fx.stack, account.address);

    await page.getByRole('button', { name: 'Restore purchases' }).click();
    const summary = page.getByTestId('restore-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain(
      `Brought back ${bought.length} reports from 1 purchase; 1 purchase already in the library.`,
    );
    await shot(page, 'settings-restore-purchases');
    expect(personalSigned).toHaveLength(1);
    expect(personalSigned[0]).toMatch(/wants you to sign in with your Ethereum account:/);
    expect(personalSigned[0]).toContain(`URI: ${fx.stack.baseUrl}/api/intel/purchases`);
    expect(await balanceOf(fx.stack, account.address)).toBe(balance);
    const library = await fx.desk.core.handlers['library.list']({ handle });
    expect(library.items.map((item) => item.id).sort()).toEqual([...bought].sort());
  });
});
