/**
 * Sign-in-with-x on the reference service, driven by the official x402 client packages: a wallet that paid (with
 * the official fetch wrapper) reads its selection again for free with `wrapFetchWithSIWx`, and lists what it
 * bought on the purchases route with `createSIWxPayload`. An EOA and a contract (ERC-1271) wallet; and the proofs
 * that must fail: another signer, another wallet's nonce, a nonce the service never issued or issued for another
 * route, another origin, and a challenge too old.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  createSIWxPayload,
  encodeSIWxHeader,
  wrapFetchWithSIWx,
  type CompleteSIWxInfo,
  type EVMSigner,
  type SIWxExtension,
} from '@x402/extensions/sign-in-with-x';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { hashMessage } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { mintTestUsdc } from '../../src/service/chain/token';
import { startStack, type Stack } from '../../src/service/stack';
import { openServiceDb } from '../../src/service/store/db';
import { SignIn } from '../../src/service/payment/sign-in';
import { reportMenuSchema, shelfListSchema } from '../../src/shared/wire';
import { officialBuyer } from '../interop/official-client';
import { deployContractWallet, wrapOwnerSignature } from '../interop/contract-wallet';
import { tempDir } from '../core/helpers';
import { tokenBalance } from './helpers';

let stack: Stack;
let selectionUrl: string;
let owner: PrivateKeyAccount;
let stranger: PrivateKeyAccount;
let paidBody: string;
const json = { headers: { Accept: 'application/json' } };
const purchasesUrl = () => `${stack.baseUrl}/api/intel/purchases`;

interface PurchasesPage {
  payer: string;
  purchases: { resource: string; transaction: string; answer: string; amount: string }[];
  next: number | null;
}

/** The sign-in challenge of a 402, ready to sign on the service's chain. */
async function challengeOf(response: Response): Promise<CompleteSIWxInfo> {
  expect(response.status).toBe(402);
  const required = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '');
  const offer = required.extensions?.['sign-in-with-x'] as SIWxExtension;
  return { ...offer.info, chainId: offer.supportedChains[0]!.chainId, type: 'eip191' };
}

async function signedHeader(url: string, signer: EVMSigner, info?: CompleteSIWxInfo): Promise<string> {
  const challenge = info ?? (await challengeOf(await fetch(url, json)));
  return encodeSIWxHeader(await createSIWxPayload(challenge, signer, url));
}

const withSignIn = (url: string, header: string) =>
  fetch(url, { headers: { Accept: 'application/json', 'SIGN-IN-WITH-X': header } });

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    mining: 'auto',
  });
  owner = privateKeyToAccount(stack.buyerKeys[0]!);
  stranger = privateKeyToAccount(stack.buyerKeys[1]!);
  const shelf = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
  const handle = shelf.entries[0]!.username;
  const menu = reportMenuSchema.parse(
    await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json(),
  );
  selectionUrl = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${menu.reports
    .slice(0, 2)
    .map((r) => r.id)
    .join(',')}`;
  const buyer = officialBuyer(owner, { allowedAssets: [{ network: stack.network, asset: stack.asset }] });
  const paid = await buyer.fetch(selectionUrl, json);
  expect(paid.status, await paid.clone().text()).toBe(200);
  paidBody = await paid.text();
});
afterAll(async () => {
  await stack?.stop();
});

describe('a wallet that paid signs in with x', () => {
  it('reads its selection again with the official fetch wrapper, free and byte for byte', async () => {
    const before = await tokenBalance(stack, owner.address);
    const again = await wrapFetchWithSIWx(fetch, owner)(selectionUrl, json);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(paidBody);
    expect(again.headers.get('PAYMENT-RESPONSE')).toBeNull();
    expect(await tokenBalance(stack, owner.address)).toBe(before);
  });

  it('gives another wallet the price, not the reports', async () => {
    const response = await wrapFetchWithSIWx(fetch, stranger)(selectionUrl, json);
    expect(response.status).toBe(402);
    expect(decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '').error).toMatch(
      /has not bought this selection/,
    );
  });

  it('lists its purchases on the auth-only route, with the answer as sent', async () => {
    const first = await fetch(purchasesUrl(), json);
    const required = decodePaymentRequiredHeader(first.headers.get('PAYMENT-REQUIRED') ?? '');
    expect(required.accepts).toEqual([]);
    const header = await signedHeader(purchasesUrl(), owner, await challengeOf(first));
    const page = (await (await withSignIn(purchasesUrl(), header)).json()) as PurchasesPage;
    expect(page.payer).toBe(owner.address.toLowerCase());
    expect(page.purchases).toHaveLength(1);
    expect(page.purchases[0]!.answer).toBe(paidBody);
    expect(page.purchases[0]!.amount).toBe('20000');
    expect(page.next).toBeNull();
    // The same proof serves the next page of the same route while it lasts.
    expect((await withSignIn(purchasesUrl(), header)).status).toBe(200);
  });

  it('works for a contract wallet, checked on chain (ERC-1271)', async () => {
    const walletOwner = privateKeyToAccount(stack.buyerKeys[2]!);
    const wallet = await deployContractWallet(stack.chain, walletOwner);
    await mintTestUsdc(stack.chain.clients, stack.chain.token, [wallet], '1');
    const asWallet: EVMSigner = {
      address: wallet,
      signMessage: async ({ message }) =>
        wrapOwnerSignature(await walletOwner.sign({ hash: hashMessage(message) })),
    };
    const empty = (await (
      await withSignIn(purchasesUrl(), await signedHeader(purchasesUrl(), asWallet))
    ).json()) as PurchasesPage;
    expect(empty).toMatchObject({ payer: wallet.toLowerCase(), purchases: [] });
    // The owner's own EOA signature is not the wallet's.
    const notWrapped: EVMSigner = {
      address: wallet,
      signMessage: ({ message }) => walletOwner.signMessage({ message }),
    };
    const refused = await withSignIn(purchasesUrl(), await signedHeader(purchasesUrl(), notWrapped));
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_siwx_signature');
  });
});

describe('proofs the service refuses', () => {
  async function refusal(header: string): Promise<string> {
    const response = await withSignIn(purchasesUrl(), header);
    expect(response.status).toBe(402);
    return ((await response.json()) as { error: string }).error;
  }

  it('a signature by someone else than the address it names', async () => {
    const forged: EVMSigner = {
      address: owner.address,
      signMessage: ({ message }) => stranger.signMessage({ message }),
    };
    expect(await refusal(await signedHeader(purchasesUrl(), forged))).toBe('invalid_siwx_signature');
  });

  it('a nonce the service never issued, or issued for another route', async () => {
    const info = await challengeOf(await fetch(purchasesUrl(), json));
    const madeUp = { ...info, nonce: randomBytes(16).toString('hex') };
    expect(await refusal(await signedHeader(purchasesUrl(), owner, madeUp))).toBe('invalid_siwx_nonce');
    const otherRoute = await challengeOf(await fetch(selectionUrl, json));
    const moved = { ...info, nonce: otherRoute.nonce };
    expect(await refusal(await signedHeader(purchasesUrl(), owner, moved))).toBe('invalid_siwx_nonce');
  });

  it("another wallet's nonce, once that wallet has used it", async () => {
    const info = await challengeOf(await fetch(purchasesUrl(), json));
    expect((await withSignIn(purchasesUrl(), await signedHeader(purchasesUrl(), owner, info))).status).toBe(
      200,
    );
    expect(await refusal(await signedHeader(purchasesUrl(), stranger, info))).toBe('invalid_siwx_nonce');
  });

  it('a challenge for another origin', async () => {
    const info = await challengeOf(await fetch(purchasesUrl(), json));
    const elsewhere = 'http://127.0.0.1:9/api/intel/purchases';
    const header = encodeSIWxHeader(
      await createSIWxPayload({ ...info, domain: '127.0.0.1:9', uri: elsewhere }, owner, elsewhere),
    );
    expect(await refusal(header)).toBe('invalid_siwx_domain_mismatch');
  });

  it('a malformed header, with a reason and no stack trace', async () => {
    const response = await withSignIn(purchasesUrl(), 'not base64 at all!');
    expect(response.status).toBe(402);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_siwx_header');
  });
});

describe('the service clock', () => {
  it('refuses a challenge issued more than five minutes ago', async () => {
    const dir = tempDir('service-sign-in-');
    const db = openServiceDb(`${dir.dir}/service.db`);
    try {
      let now = Date.now() - 6 * 60_000;
      const signIn = new SignIn(
        db,
        stack.network,
        () => Promise.resolve(false),
        () => now,
      );
      const url = 'http://127.0.0.1:1/api/intel/purchases';
      const offer = signIn.challenge(url, 'test')['sign-in-with-x']!;
      const info: CompleteSIWxInfo = { ...offer.info, chainId: stack.network, type: 'eip191' };
      const header = encodeSIWxHeader(await createSIWxPayload(info, owner, url));
      now = Date.now();
      const result = await signIn.check(
        { 'sign-in-with-x': header },
        'http://127.0.0.1:1',
        '/api/intel/purchases',
      );
      expect(result).toMatchObject({ kind: 'refused' });
      expect(result.kind === 'refused' && result.reason).toMatch(
        /invalid_siwx_(issued_at_too_old|expired|nonce)/,
      );
    } finally {
      db.close();
      dir.remove();
    }
  });
});
