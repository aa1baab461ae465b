/**
 * The service settles only an authorization with time left to settle: one that closes within its settlement
 * margin (a few seconds) could expire between the check and the block that settles it, leaving the payer's
 * signature in flight with nothing to show. It is refused by the service's own check, before the nonce is
 * taken or the chain is asked, with the reason a payer can act on; nothing moves on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAbi } from 'viem';
import { startStack, type Stack } from '../../src/service/stack';
import { reportMenuSchema } from '../../src/shared/wire';
import { buyer, getJson, signAuthorization, tokenBalance, v2Payment } from './helpers';

const UNIT = 10_000n;
const TOKEN_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

let stack: Stack;
let url: string;
/** What the service offered for `url`, echoed back as the accepted terms. */
let offered: Record<string, unknown>;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 1,
  });
  const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
  const handle = (shelf.body['entries'] as { username: string }[])[0]!.username;
  const menu = reportMenuSchema.parse(
    (await getJson(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).body,
  );
  url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${menu.reports[0]!.id}`;
  const challenge = await getJson(url);
  expect(challenge.status).toBe(402);
  offered = (challenge.body['accepts'] as Record<string, unknown>[])[0]!;
});
afterAll(async () => {
  await stack?.stop();
});

async function used(nonce: `0x${string}`): Promise<boolean> {
  return stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: TOKEN_ABI,
    functionName: 'authorizationState',
    args: [buyer(stack).address, nonce],
  });
}

describe('the settlement margin', () => {
  it('refuses an authorization that closes within the margin as expired, and nothing moves', async () => {
    const payer = buyer(stack).address;
    const before = await tokenBalance(stack, payer);
    // Still open now, but for less than the service's margin.
    const closing = BigInt(Math.floor(Date.now() / 1000)) + 3n;
    const signed = await signAuthorization(stack, 0, UNIT, { validBefore: closing });
    const answer = await getJson(url, { 'X-402-Payment': v2Payment(stack, signed, UNIT, offered) });
    expect([answer.status, answer.body['error']]).toEqual([402, 'authorization_expired']);
    expect(answer.body['message']).toMatch(new RegExp(`expired at ${closing}`));
    expect(await tokenBalance(stack, payer)).toBe(before);
    expect(await used(signed.authorization.nonce)).toBe(false);
  });

  it('names an authorization the facilitator would call too close as expired, not as rejected', async () => {
    // Five to six seconds left: inside the official facilitator's own margin of 6 s, so a service whose margin
    // were smaller would pass it on and answer with the facilitator's unexplained refusal.
    const closing = BigInt(Math.floor(Date.now() / 1000)) + 6n;
    const signed = await signAuthorization(stack, 0, UNIT, { validBefore: closing });
    const answer = await getJson(url, { 'X-402-Payment': v2Payment(stack, signed, UNIT, offered) });
    expect([answer.status, answer.body['error']]).toEqual([402, 'authorization_expired']);
    expect(await used(signed.authorization.nonce)).toBe(false);
  });

  it('settles the same payment with a window that reaches past the margin', async () => {
    const payer = buyer(stack).address;
    const before = await tokenBalance(stack, payer);
    const signed = await signAuthorization(stack, 0, UNIT, {
      validBefore: BigInt(Math.floor(Date.now() / 1000)) + 120n,
    });
    const answer = await getJson(url, { 'X-402-Payment': v2Payment(stack, signed, UNIT, offered) });
    expect(answer.status).toBe(200);
    expect(await tokenBalance(stack, payer)).toBe(before - UNIT);
    expect(await used(signed.authorization.nonce)).toBe(true);
  });
});
