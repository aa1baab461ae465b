/** Shared by the service tests: a stack per file, payments signed by hand, token balances on chain. */
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { toHex, type Address, type Hex } from 'viem';
import type { Stack } from '../../src/service/stack';

export const TRANSFER_TYPES = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

export function buyer(stack: Stack, index = 0) {
  const key = stack.buyerKeys[index];
  if (!key) throw new Error(`no buyer ${index}`);
  return privateKeyToAccount(key);
}

export async function tokenBalance(stack: Stack, owner: Address): Promise<bigint> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

export interface AuthorizationOverrides {
  to?: Address;
  value?: bigint;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  chainId?: number;
  verifyingContract?: Address;
  domainName?: string;
}

export async function signAuthorization(
  stack: Stack,
  buyerIndex: number,
  amount: bigint,
  overrides: AuthorizationOverrides = {},
) {
  const account = buyer(stack, buyerIndex);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: account.address,
    to: overrides.to ?? stack.payTo,
    value: overrides.value ?? amount,
    validAfter: overrides.validAfter ?? now - 60n,
    validBefore: overrides.validBefore ?? now + 300n,
    nonce: overrides.nonce ?? toHex(randomBytes(32)),
  };
  const signature = await account.signTypedData({
    domain: {
      name: overrides.domainName ?? 'USD Coin',
      version: '2',
      chainId: overrides.chainId ?? stack.chainId,
      verifyingContract: overrides.verifyingContract ?? stack.asset,
    },
    types: { TransferWithAuthorization: TRANSFER_TYPES },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  return {
    signature,
    authorization: {
      from: authorization.from,
      to: authorization.to,
      value: authorization.value.toString(),
      validAfter: authorization.validAfter.toString(),
      validBefore: authorization.validBefore.toString(),
      nonce: authorization.nonce,
    },
  };
}

export function encodePayment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

export function v2Payment(
  stack: Stack,
  signed: Awaited<ReturnType<typeof signAuthorization>>,
  amount: bigint,
  acceptedOverrides: Record<string, unknown> = {},
  extensions?: Record<string, unknown>,
): string {
  return encodePayment({
    x402Version: 2,
    resource: { url: stack.baseUrl },
    // Echoed as the service offers it (accepts[0] of its challenge): anything else is refused.
    accepted: {
      scheme: 'exact',
      protocol: 'x402',
      version: 2,
      network: stack.network,
      asset: stack.asset,
      amount: amount.toString(),
      payTo: stack.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
      ...acceptedOverrides,
    },
    payload: signed,
    ...(extensions ? { extensions } : {}),
  });
}

export function v1Payment(signed: Awaited<ReturnType<typeof signAuthorization>>, network = 'base'): string {
  return encodePayment({ x402Version: 1, scheme: 'exact', network, payload: signed });
}

export async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body, headers: response.headers };
}
