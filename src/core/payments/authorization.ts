/** EIP-3009 TransferWithAuthorization: typed data from a quote, and the x402 v2 payment payload. */
import { createHash, randomBytes } from 'node:crypto';
import { recoverTypedDataAddress, toHex, isAddressEqual, type Hex, type PublicClient } from 'viem';
import { z } from 'zod';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { ExactEIP3009Payload } from '@x402/evm';
import type { PaymentChallenge } from '../../shared/wire';
import type { Quote } from './quote';
import { DeskError } from '../base/errors';
import { PAYMENT_IDENTIFIER_KEY } from '../ledger/payment-id';
import { paymentWindow } from './chain-clock';
import type { ClockSample } from '../client/clock-sample';

/**
 * The EIP-712 types of the authorization. @x402/evm exports the same (`authorizationTypes`; a test holds them
 * equal), but loading that package costs every CLI start about 45 ms, so core keeps its own copy.
 */
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

/**
 * Checks the signature authorizes this payment for the payer. An ordinary key must recover to the payer; a
 * contract wallet (EIP-1271, or ERC-6492 before it is deployed) signs bytes that recover to nobody in
 * particular, so its signature is checked by the chain, as the token will check it when it settles.
 */
export async function assertSignedBy(
  quote: Quote,
  authorization: Authorization,
  signature: Hex,
  chain: PublicClient | null,
): Promise<void> {
  const data = { ...typedData(quote, authorization), signature };
  let signer: `0x${string}` | null = null;
  try {
    signer = await recoverTypedDataAddress(data);
  } catch {
    // Not an ordinary 65-byte signature: a contract wallet's, or garbage; the chain tells which.
  }
  if (signer !== null && isAddressEqual(signer, authorization.from)) return;
  if (!chain) {
    throw new DeskError(
      'invalid_signature',
      signer === null
        ? `The wallet returned a signature that is not an ordinary key's, and without a chain RPC Intel Desk cannot check it as a contract wallet's (${authorization.from}). Set the chain RPC in Settings or with --rpc. Nothing was sent.`
        : `The wallet signed as ${signer}, not as the payer ${authorization.from}. Nothing was sent.`,
      'wallet',
    );
  }
  let valid: boolean;
  try {
    valid = await chain.verifyTypedData({
      ...data,
      message: { ...authorization },
      address: authorization.from,
    });
  } catch (error) {
    throw new DeskError(
      'signature_unverified',
      `The chain could not be asked to check the wallet's signature for ${authorization.from}. Nothing was sent; try again when the chain RPC answers.`,
      'network',
      {},
      { cause: error },
    );
  }
  if (!valid) {
    throw new DeskError(
      'invalid_signature',
      signer === null
        ? `The wallet's signature is not valid for the payer ${authorization.from}, neither as a key's nor as a contract wallet's. Nothing was sent.`
        : `The wallet signed as ${signer}, and the payer ${authorization.from} does not accept that signature as a contract wallet. Nothing was sent.`,
      'wallet',
    );
  }
}

/**
 * The x402 v2 payment payload: the option the service offered, echoed exactly, and the signed authorization.
 * When the challenge offers the `payment-identifier` extension and a purchase id is given, the payload carries
 * that id, so the identical payload sent again after a lost answer gets the answer back (decision 0024).
 */
export async function paymentPayload(
  quote: Quote,
  authorization: Authorization,
  signature: Hex,
  resourceUrl: string,
  purchaseId?: string,
): Promise<PaymentPayload> {
  const payload: ExactEIP3009Payload = { signature, authorization: authorizationMessage(authorization) };
  const extensions = purchaseId === undefined ? null : await paymentIdExtensions(quote.challenge, purchaseId);
  return {
    x402Version: 2,
    // Echoed as the service described it, as the official client does; the URL requested when it described none.
    resource: quote.challenge.resource ?? { url: resourceUrl },
    accepted: quote.requirement as PaymentRequirements,
    payload,
    ...(extensions ? { extensions } : {}),
  };
}

/** A service's offer of the extension, as the SDK's own guard reads it: an `info` with a boolean `required`. */
const paymentIdOfferSchema = z.looseObject({ info: z.looseObject({ required: z.boolean() }) });

/** True when the challenge offers `payment-identifier`. */
function offersPaymentId(challenge: PaymentChallenge): boolean {
  return paymentIdOfferSchema.safeParse(challenge.extensions?.[PAYMENT_IDENTIFIER_KEY]).success;
}

/** A purchase's payment id: its ledger id when that satisfies the extension's rules, else one derived from it. */
export function paymentIdFor(purchaseId: string, isValid: (id: string) => boolean): string {
  if (isValid(purchaseId)) return purchaseId;
  return `pay_${createHash('sha256').update(purchaseId).digest('hex').slice(0, 40)}`;
}

/**
 * The payload's `extensions`: the service's offer of `payment-identifier` with this purchase's id, or null when
 * the challenge does not offer it. The SDK is loaded only then (it costs a CLI start tens of milliseconds).
 */
async function paymentIdExtensions(
  challenge: PaymentChallenge,
  purchaseId: string,
): Promise<Record<string, unknown> | null> {
  if (!offersPaymentId(challenge)) return null;
  let sdk: typeof import('@x402/extensions/payment-identifier');
  try {
    sdk = await import('@x402/extensions/payment-identifier');
  } catch {
    // An install without the SDK pays as before the extension: no id, so nothing kept or ever sent again.
    return null;
  }
  // A copy: the SDK writes the id into the object it is given, and the held quote must stay as it was.
  const extensions: Record<string, unknown> = {
    [sdk.PAYMENT_IDENTIFIER]: structuredClone(challenge.extensions?.[PAYMENT_IDENTIFIER_KEY]),
  };
  sdk.appendPaymentIdentifierToExtensions(extensions, paymentIdFor(purchaseId, sdk.isValidPaymentId));
  return extensions;
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
