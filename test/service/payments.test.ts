import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { paidSuccessSchema, reportMenuSchema, type ReportMenu } from '../../src/shared/wire';
import {
  TRANSFER_TYPES,
  buyer,
  encodePayment,
  getJson,
  signAuthorization,
  tokenBalance,
  v1Payment,
  v2Payment,
} from './helpers';

let stack: Stack;
let handle: string;
let menu: ReportMenu;
const UNIT = 10_000n;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 4, minReportsPerHandle: 5, maxReportsPerHandle: 9 },
    buyerCount: 3,
  });
  const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
  handle = ((shelf.body['entries'] as { username: string }[])[0] ?? { username: '' }).username;
  menu = reportMenuSchema.parse(
    (await getJson(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).body,
  );
});
afterAll(async () => {
  await stack?.stop();
});

const oneReport = () =>
  `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${menu.reports[0]!.id}`;

async function pay(url: string, header: string, value: string) {
  return getJson(url, { [header]: value });
}

describe('paying for reports', () => {
  it('accepts a v2 payload in X-402-Payment, settles on chain and answers with the receipt', async () => {
    const account = buyer(stack, 0);
    const before = await tokenBalance(stack, account.address);
    const signed = await signAuthorization(stack, 0, UNIT);
    const { status, body, headers } = await pay(oneReport(), 'X-402-Payment', v2Payment(stack, signed, UNIT));
    expect(status).toBe(200);
    const paid = paidSuccessSchema.parse(body);
    expect(paid).toMatchObject({ username: handle, select: 'range', reportCount: 1, chargedUsd: 0.01 });
    const receipt = JSON.parse(
      Buffer.from(headers.get('x-payment-response') ?? '', 'base64').toString('utf8'),
    );
    expect(receipt).toMatchObject({ success: true, network: 'eip155:31337', payer: account.address });
    expect(headers.get('payment-response')).toBe(headers.get('x-payment-response'));
    expect(await tokenBalance(stack, account.address)).toBe(before - UNIT);
  });

  it('accepts a v1 payload (scheme exact, network base) in X-Payment', async () => {
    const before = await tokenBalance(stack, buyer(stack, 1).address);
    const signed = await signAuthorization(stack, 1, UNIT);
    const { status, body } = await pay(oneReport(), 'X-Payment', v1Payment(signed));
    expect(status).toBe(200);
    expect(body['reportCount']).toBe(1);
    expect(await tokenBalance(stack, buyer(stack, 1).address)).toBe(before - UNIT);
  });

  it('accepts a v2 payload in PAYMENT-SIGNATURE, for a handle spelled with @ and mixed case', async () => {
    const account = buyer(stack, 0);
    const before = await tokenBalance(stack, account.address);
    const signed = await signAuthorization(stack, 0, UNIT);
    const url = `${stack.baseUrl}/api/intel/reports?username=%40${handle.toUpperCase()}&select=range&ids=${menu.reports[1]!.id}`;
    const { status, body } = await pay(url, 'PAYMENT-SIGNATURE', v2Payment(stack, signed, UNIT));
    expect(status).toBe(200);
    expect(paidSuccessSchema.parse(body)).toMatchObject({
      username: handle,
      reportCount: 1,
      chargedUsd: 0.01,
    });
    expect(paidSuccessSchema.parse(body).reports[0]?.id).toBe(menu.reports[1]!.id);
    expect(await tokenBalance(stack, account.address)).toBe(before - UNIT);
  });

  it('reads X-402-Payment first when several payment headers are sent', async () => {
    const before = await tokenBalance(stack, buyer(stack, 0).address);
    const signed = await signAuthorization(stack, 0, UNIT);
    const answer = await getJson(oneReport(), {
      'X-402-Payment': v2Payment(stack, signed, UNIT),
      'X-Payment': 'not a payment',
      'PAYMENT-SIGNATURE': 'not one either',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await tokenBalance(stack, buyer(stack, 0).address)).toBe(before - UNIT);
  });

  it('takes one payload sent in all three headers as one payment, and its replay as used', async () => {
    const account = buyer(stack, 1);
    const before = await tokenBalance(stack, account.address);
    const signed = await signAuthorization(stack, 1, UNIT);
    const payment = v2Payment(stack, signed, UNIT);
    const all = { 'X-402-Payment': payment, 'X-Payment': payment, 'PAYMENT-SIGNATURE': payment };
    const answer = await getJson(oneReport(), all);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body['chargedUsd']).toBe(0.01);
    expect(await tokenBalance(stack, account.address)).toBe(before - UNIT);
    const again = await getJson(oneReport(), all);
    expect([again.status, again.body['error']]).toEqual([409, 'payment_already_used']);
    expect(await tokenBalance(stack, account.address)).toBe(before - UNIT);
  });

  it('charges unit price times the number of reports for select=all', async () => {
    const account = buyer(stack, 2);
    const before = await tokenBalance(stack, account.address);
    const amount = UNIT * BigInt(menu.reportCount);
    const signed = await signAuthorization(stack, 2, amount);
    const url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=all`;
    const { status, body } = await pay(url, 'X-402-Payment', v2Payment(stack, signed, amount));
    expect(status).toBe(200);
    expect(body['reportCount']).toBe(menu.reportCount);
    expect(await tokenBalance(stack, account.address)).toBe(before - amount);
  });
});

describe('refused payments (nothing moves on chain)', () => {
  async function expectRefused(header: string, value: string, status: number, error: string) {
    const before = await tokenBalance(stack, buyer(stack, 0).address);
    const answer = await pay(oneReport(), header, value);
    expect([answer.status, answer.body['error']]).toEqual([status, error]);
    expect(typeof answer.body['message']).toBe('string');
    expect(await tokenBalance(stack, buyer(stack, 0).address)).toBe(before);
    return answer.body;
  }

  it('refuses a replayed payment with 409 payment_already_used', async () => {
    const signed = await signAuthorization(stack, 0, UNIT);
    const header = v2Payment(stack, signed, UNIT);
    expect((await pay(oneReport(), 'X-402-Payment', header)).status).toBe(200);
    await expectRefused('X-402-Payment', header, 409, 'payment_already_used');
    await expectRefused('X-Payment', v1Payment(signed), 409, 'payment_already_used');
  });

  it('refuses underpayment with requiredUsd and paidUsd', async () => {
    const signed = await signAuthorization(stack, 0, UNIT / 2n);
    const body = await expectRefused(
      'X-402-Payment',
      v2Payment(stack, signed, UNIT / 2n),
      402,
      'insufficient_payment',
    );
    expect(body).toMatchObject({ requiredUsd: 0.01, paidUsd: 0.005 });
  });

  it('refuses a signature by someone other than the payer', async () => {
    const signed = await signAuthorization(stack, 0, UNIT);
    const forged = { ...signed, authorization: { ...signed.authorization, from: buyer(stack, 1).address } };
    await expectRefused('X-402-Payment', v2Payment(stack, forged, UNIT), 402, 'invalid_signature');
  });

  it('refuses a signature made for another chain or token domain', async () => {
    const otherChain = await signAuthorization(stack, 0, UNIT, { chainId: 8453 });
    await expectRefused('X-402-Payment', v2Payment(stack, otherChain, UNIT), 402, 'invalid_signature');
    const otherName = await signAuthorization(stack, 0, UNIT, { domainName: 'USDC' });
    await expectRefused('X-402-Payment', v2Payment(stack, otherName, UNIT), 402, 'invalid_signature');
  });

  it('refuses a signature made for another token contract, in v1 form (which names no asset) and v2', async () => {
    const foreignToken = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
    const signed = await signAuthorization(stack, 0, UNIT, { verifyingContract: foreignToken });
    await expectRefused('X-Payment', v1Payment(signed), 402, 'invalid_signature');
    await expectRefused('X-402-Payment', v2Payment(stack, signed, UNIT), 402, 'invalid_signature');
  });

  it('refuses a payment to another payee', async () => {
    const signed = await signAuthorization(stack, 0, UNIT, { to: buyer(stack, 2).address });
    await expectRefused('X-402-Payment', v2Payment(stack, signed, UNIT), 402, 'payee_mismatch');
  });

  it('refuses a payment in another asset or on another network', async () => {
    const signed = await signAuthorization(stack, 0, UNIT);
    const otherAsset = v2Payment(stack, signed, UNIT, {
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    await expectRefused('X-402-Payment', otherAsset, 402, 'asset_mismatch');
    await expectRefused(
      'X-402-Payment',
      v2Payment(stack, signed, UNIT, { network: 'eip155:8453' }),
      402,
      'network_mismatch',
    );
    await expectRefused('X-Payment', v1Payment(signed, 'base-sepolia'), 402, 'network_mismatch');
  });

  it('refuses an expired or not yet valid authorization', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const expired = await signAuthorization(stack, 0, UNIT, { validBefore: now - 1n });
    await expectRefused('X-402-Payment', v2Payment(stack, expired, UNIT), 402, 'authorization_expired');
    const future = await signAuthorization(stack, 0, UNIT, { validAfter: now + 3600n });
    await expectRefused('X-402-Payment', v2Payment(stack, future, UNIT), 402, 'authorization_not_yet_valid');
  });

  it('refuses a validBefore beyond maxTimeoutSeconds plus the margin, ten years ahead too', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const decade = await signAuthorization(stack, 0, UNIT, { validBefore: now + 10n * 365n * 86_400n });
    const body = await expectRefused(
      'X-402-Payment',
      v2Payment(stack, decade, UNIT),
      402,
      'authorization_too_long',
    );
    expect(body['message']).toMatch(/at most 300 s \(maxTimeoutSeconds\) plus 30 s/);
    const v1 = await signAuthorization(stack, 0, UNIT, { validBefore: now + 400n });
    await expectRefused('X-Payment', v1Payment(v1), 402, 'authorization_too_long');
  });

  it('accepts a validBefore within the margin past maxTimeoutSeconds', async () => {
    const before = await tokenBalance(stack, buyer(stack, 2).address);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const signed = await signAuthorization(stack, 2, UNIT, { validBefore: now + 300n + 20n });
    const answer = await pay(oneReport(), 'PAYMENT-SIGNATURE', v2Payment(stack, signed, UNIT));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await tokenBalance(stack, buyer(stack, 2).address)).toBe(before - UNIT);
  });

  it('refuses a v2 payment whose accepted terms are not the ones offered for the request', async () => {
    for (const overrides of [
      { maxTimeoutSeconds: 86_400 },
      { amount: (UNIT * 2n).toString() },
      { extra: { name: 'USD Coin', version: '2', note: 'mine' } },
      { protocol: undefined },
      { scheme: 'exact', description: 'added' },
    ]) {
      const signed = await signAuthorization(stack, 0, UNIT);
      const body = await expectRefused(
        'X-402-Payment',
        v2Payment(stack, signed, UNIT, overrides),
        402,
        'accepted_mismatch',
      );
      expect(body['message']).toContain('echo accepts[0] of the 402 challenge unchanged');
    }
  });

  it('refuses more than the exact price', async () => {
    const signed = await signAuthorization(stack, 0, UNIT * 2n);
    await expectRefused('X-402-Payment', v2Payment(stack, signed, UNIT * 2n), 402, 'amount_mismatch');
  });

  it('refuses a payer without enough USDC, and frees the nonce for a later try', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const now = BigInt(Math.floor(Date.now() / 1000));
    const authorization = {
      from: stranger.address,
      to: stack.payTo,
      value: UNIT,
      validAfter: now - 60n,
      validBefore: now + 300n,
      nonce: toHex(randomBytes(32)),
    };
    const signature = await stranger.signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: stack.chainId, verifyingContract: stack.asset },
      types: { TransferWithAuthorization: TRANSFER_TYPES },
      primaryType: 'TransferWithAuthorization',
      message: authorization,
    });
    const signed = {
      signature,
      authorization: {
        ...authorization,
        value: UNIT.toString(),
        validAfter: authorization.validAfter.toString(),
        validBefore: authorization.validBefore.toString(),
      },
    };
    const header = v2Payment(stack, signed, UNIT);
    const broke = await pay(oneReport(), 'X-402-Payment', header);
    expect([broke.status, broke.body['error']], String(broke.body['message'])).toEqual([
      402,
      'insufficient_balance',
    ]);

    const hash = await stack.chain.clients.walletClient.writeContract({
      address: stack.asset,
      abi: stack.chain.token.contract.abi,
      functionName: 'mint',
      args: [stranger.address, UNIT],
    });
    await stack.chain.clients.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect((await pay(oneReport(), 'X-402-Payment', header)).status).toBe(200);
    expect(await tokenBalance(stack, stranger.address)).toBe(0n);
  });

  it('answers garbage in a payment header with a specific 400', async () => {
    const notBase64 = await pay(oneReport(), 'X-402-Payment', '!!!');
    expect([notBase64.status, notBase64.body['error']]).toEqual([400, 'invalid_payment_header']);
    const notPayload = await pay(
      oneReport(),
      'X-402-Payment',
      encodePayment({ x402Version: 2, hello: 'world' }),
    );
    expect([notPayload.status, notPayload.body['error']]).toEqual([400, 'invalid_payment_payload']);
    const signed = await signAuthorization(stack, 0, UNIT);
    const shortNonce = {
      ...signed,
      authorization: { ...signed.authorization, nonce: toHex(randomBytes(8)) },
    };
    const short = await pay(oneReport(), 'X-402-Payment', v2Payment(stack, shortNonce, UNIT));
    expect([short.status, short.body['error']]).toEqual([402, 'invalid_payment_payload']);
  });
});

describe('concurrency', () => {
  it('settles one nonce once when many requests carry it at the same time', async () => {
    const account = buyer(stack, 1);
    const before = await tokenBalance(stack, account.address);
    const signed = await signAuthorization(stack, 1, UNIT);
    const header = v2Payment(stack, signed, UNIT);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => pay(oneReport(), 'X-402-Payment', header)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(await tokenBalance(stack, account.address)).toBe(before - UNIT);
  });

  it('settles many different payments at once, each exactly once', async () => {
    const before = await Promise.all([0, 1, 2].map((i) => tokenBalance(stack, buyer(stack, i).address)));
    const signed = await Promise.all(
      [0, 1, 2].flatMap((i) =>
        Array.from({ length: 4 }, () => signAuthorization(stack, i, UNIT).then((s) => ({ i, s }))),
      ),
    );
    const answers = await Promise.all(
      signed.map(({ s }) => pay(oneReport(), 'X-402-Payment', v2Payment(stack, s, UNIT))),
    );
    expect(answers.map((a) => a.status)).toEqual(signed.map(() => 200));
    for (const i of [0, 1, 2]) {
      expect(await tokenBalance(stack, buyer(stack, i).address)).toBe(before[i]! - 4n * UNIT);
    }
  });
});
