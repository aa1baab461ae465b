/** EIP-3009 TransferWithAuthorization: typed data from a quote, and the x402 v2 payment payload. */
import { randomBytes } from 'node:crypto';
import { recoverTypedDataAddress, toHex, isAddressEqual, type Hex } from 'viem';
import type { Quote } from './quote';
import { DeskError } from '../errors';
import { paymentWindow, type ClockSample } from './chain-clock';

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export interface Authorization {
  from: `0x${string}`;
  to: `0x${string}`;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/**
 * An authorization dated to be valid now on the desk's clock (nowMs) and every sampled clock (the service's,
 * the chain's); throws `clock_skew` when they disagree by more than the quote's validity can absorb.
 */
export function newAuthorization(
  quote: Quote,
  payer: `0x${string}`,
  nowMs: number,
  clocks: ClockSample[] = [],
): Authorization {
  const window = paymentWindow(nowMs, clocks, quote.validitySeconds);
  return {
    from: payer,
    to: quote.payTo,
    value: quote.amount,
    validAfter: window.validAfter,
    validBefore: window.validBefore,
    nonce: toHex(randomBytes(32)),
  };
}

export function typedData(quote: Quote, authorization: Authorization) {
  return {
    domain: {
      name: quote.domain.name,
      version: quote.domain.version,
      chainId: quote.chainId,
      verifyingContract: quote.asset,
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization' as const,
    message: authorization,
  };
}

export async function assertSignedBy(
  quote: Quote,
  authorization: Authorization,
  signature: Hex,
): Promise<void> {
  let signer: `0x${string}`;
  try {
    signer = await recoverTypedDataAddress({ ...typedData(quote, authorization), signature });
  } catch (error) {
    throw new DeskError(
      'invalid_signature',
      'The wallet returned a malformed signature.',
      'wallet',
      {},
      { cause: error },
    );
  }
  if (!isAddressEqual(signer, authorization.from)) {
    throw new DeskError(
      'invalid_signature',
      `The wallet signed as ${signer}, not as the payer ${authorization.from}.`,
      'wallet',
    );
  }
}

export function paymentHeader(
  quote: Quote,
  authorization: Authorization,
  signature: Hex,
  resourceUrl: string,
): string {
  const payload = {
    x402Version: 2,
    resource: { url: resourceUrl },
    accepted: quote.requirement,
    payload: {
      signature,
      authorization: authorizationMessage(authorization),
    },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** The authorization as JSON carries it: the numbers as decimal strings (payment payload, wallet request). */
export function authorizationMessage(authorization: Authorization) {
  return {
    from: authorization.from,
    to: authorization.to,
    value: authorization.value.toString(),
    validAfter: authorization.validAfter.toString(),
    validBefore: authorization.validBefore.toString(),
    nonce: authorization.nonce,
  };
}
