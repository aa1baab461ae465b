/**
 * The x402 `payment-identifier` extension on the reference service: the challenge offers it, a paid answer is
 * kept by its id, the identical payment sent again gets that answer back without a second settlement, and a
 * different payment under a used id is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../src/service/stack';
import { paymentChallengeSchema, reportMenuSchema, type ReportMenu } from '../../src/shared/wire';
import { buyer, getJson, signAuthorization, tokenBalance, v2Payment } from './helpers';

let stack: Stack;
let handle: string;
let menu: ReportMenu;
const UNIT = 10_000n;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 2,
    mining: 'auto',
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

const reportUrl = (index: number) =>
  `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${menu.reports[index]!.id}`;

function withId(signed: Awaited<ReturnType<typeof signAuthorization>>, id: string | null, amount = UNIT) {
  const extensions = id === null ? undefined : { 'payment-identifier': { info: { required: false, id } } };
  return v2Payment(stack, signed, amount, {}, extensions);
}

async function pay(url: string, header: string) {
  const response = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
  return {
    status: response.status,
    text: await response.text(),
    paymentResponse: response.headers.get('payment-response'),
  };
}

async function authorizationUsed(payer: `0x${string}`, nonce: `0x${string}`): Promise<boolean> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'authorizationState',
    args: [payer, nonce],
  })) as boolean;
}

describe('payment-identifier on the reference service', () => {
  it('is offered in the challenge, optional, beside the spec facts', async () => {
    const { status, body } = await getJson(reportUrl(0));
    expect(status).toBe(402);
    const extensions = paymentChallengeSchema.parse(body).extensions ?? {};
    expect(extensions['payment-identifier']).toMatchObject({
      info: { required: false },
      schema: { type: 'object' },
    });
    expect(extensions).toMatchObject({ chainId: stack.chainId, reportCount: 1, select: 'range' });
  });

  it('answers the identical payment sent again with the kept answer, settling once', async () => {
    const payer = buyer(stack, 0).address;
    const before = await tokenBalance(stack, payer);
    const signed = await signAuthorization(stack, 0, UNIT);
    const header = withId(signed, randomUUID());
    const first = await pay(reportUrl(0), header);
    expect(first.status).toBe(200);
    expect(first.paymentResponse).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(await tokenBalance(stack, payer)).toBe(before - UNIT);

    const again = await pay(reportUrl(0), header);
    expect(again).toEqual(first);
    expect(await tokenBalance(stack, payer)).toBe(before - UNIT);
    expect(await authorizationUsed(payer, signed.authorization.nonce)).toBe(true);

    // Kept for the authorization window plus a day, with the payer and nonce it was paid with.
    const db = new Database(path.join(stack.dataDir, 'service.db'), { readonly: true });
    try {
      const row = db
        .prepare('SELECT payer, nonce, keep_until FROM paid_answers WHERE nonce = ?')
        .get(signed.authorization.nonce.toLowerCase()) as {
        payer: string;
        nonce: string;
        keep_until: number;
      };
      expect(row.payer).toBe(payer.toLowerCase());
      expect(row.keep_until).toBeGreaterThanOrEqual(Number(signed.authorization.validBefore) + 86_400);
    } finally {
      db.close();
    }
  });

  it('refuses a different payment under a used id with 409, and moves no money for it', async () => {
    const payer = buyer(stack, 1).address;
    const id = randomUUID();
    const first = await pay(reportUrl(1), withId(await signAuthorization(stack, 1, UNIT), id));
    expect(first.status).toBe(200);
    const before = await tokenBalance(stack, payer);
    const other = await signAuthorization(stack, 1, UNIT);
    const refused = await pay(reportUrl(1), withId(other, id));
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toMatchObject({ error: 'payment_already_used' });
    expect(await tokenBalance(stack, payer)).toBe(before);
    expect(await authorizationUsed(payer, other.authorization.nonce)).toBe(false);
  });

  it('without an id, the same payment sent twice is refused the second time, as before', async () => {
    const signed = await signAuthorization(stack, 0, UNIT);
    const header = withId(signed, null);
    expect((await pay(reportUrl(2), header)).status).toBe(200);
    const again = await pay(reportUrl(2), header);
    expect(again.status).toBe(409);
    expect(again.paymentResponse).toBeNull();
  });

  it('frees the id of a payment that did not settle, and refuses a malformed id before settling', async () => {
    const payer = buyer(stack, 0).address;
    const id = randomUUID();
    const before = await tokenBalance(stack, payer);
    const short = await signAuthorization(stack, 0, UNIT - 1n);
    expect((await pay(reportUrl(3), withId(short, id, UNIT - 1n))).status).toBe(402);
    const good = await signAuthorization(stack, 0, UNIT);
    expect((await pay(reportUrl(3), withId(good, id))).status).toBe(200);
    expect(await tokenBalance(stack, payer)).toBe(before - UNIT);

    const bad = await pay(reportUrl(4), withId(await signAuthorization(stack, 0, UNIT), 'short!'));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ error: 'invalid_payment_identifier' });
    expect(await tokenBalance(stack, payer)).toBe(before - UNIT);
  });
});
