/** Reads a payment header (X-402-Payment, X-Payment or PAYMENT-SIGNATURE) into one normalized shape. */
import { z } from 'zod';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { extractPaymentIdentifier, isValidPaymentId } from '@x402/extensions/payment-identifier';
import { paymentPayloadSchema, type Eip3009Authorization } from '../../shared/wire';
import type { IncomingHttpHeaders } from 'node:http';

export const PAYMENT_HEADERS = ['x-402-payment', 'x-payment', 'payment-signature'] as const;

export interface DecodedPayment {
  header: (typeof PAYMENT_HEADERS)[number];
  x402Version: 1 | 2;
  scheme: string;
  network: string;
  /** The requirement a v2 client echoed back; absent for v1. */
  accepted: Record<string, unknown> | undefined;
  signature: `0x${string}`;
  authorization: Eip3009Authorization;
  /** The client's payment id (x402 `payment-identifier` extension, v2 only); null when it sent none. */
  paymentId: string | null;
}

export class PaymentDecodeError extends Error {
  constructor(
    readonly code: 'invalid_payment_header' | 'invalid_payment_payload' | 'invalid_payment_identifier',
    message: string,
  ) {
    super(message);
  }
}

export function findPaymentHeader(
  headers: IncomingHttpHeaders,
): { header: DecodedPayment['header']; value: string } | null {
  for (const header of PAYMENT_HEADERS) {
    const value = headers[header];
    if (typeof value === 'string' && value.length > 0) return { header, value };
  }
  return null;
}

export function decodePayment(header: DecodedPayment['header'], value: string): DecodedPayment {
  if (value.length > 16_384)
    throw new PaymentDecodeError('invalid_payment_header', 'payment header is too large');
  if (!/^[A-Za-z0-9+/_=-]+$/.test(value.trim())) {
    throw new PaymentDecodeError('invalid_payment_header', `${header} is not base64`);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value.trim(), 'base64').toString('utf8'));
  } catch {
    throw new PaymentDecodeError('invalid_payment_header', `${header} is not base64-encoded JSON`);
  }
  const parsed = paymentPayloadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PaymentDecodeError(
      'invalid_payment_payload',
      `${header} payload is malformed${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
    );
  }
  const payload = parsed.data;
  const signature = payload.payload.signature as `0x${string}`;
  if (payload.x402Version === 1) {
    return {
      header,
      x402Version: 1,
      scheme: payload.scheme,
      network: payload.network,
      accepted: undefined,
      signature,
      authorization: payload.payload.authorization,
      paymentId: null,
    };
  }
  return {
    header,
    x402Version: 2,
    scheme: payload.accepted.scheme ?? 'exact',
    network: payload.accepted.network,
    accepted: payload.accepted,
    signature,
    authorization: payload.payload.authorization,
    paymentId: paymentIdOf(header, payload),
  };
}

const extensionsSchema = z.record(z.string(), z.unknown());

/** The payment id a v2 payload carries, read with the SDK's reader; one that breaks its rules is refused. */
function paymentIdOf(header: DecodedPayment['header'], payload: Record<string, unknown>): string | null {
  const extensions = extensionsSchema.safeParse(payload['extensions']);
  if (!extensions.success) return null;
  const sdkPayload: PaymentPayload = {
    x402Version: 2,
    accepted: payload['accepted'] as PaymentRequirements,
    payload: {},
    extensions: extensions.data,
  };
  const id = extractPaymentIdentifier(sdkPayload, false);
  if (id === null) return null;
  if (!isValidPaymentId(id)) {
    throw new PaymentDecodeError(
      'invalid_payment_identifier',
      `${header} carries a payment id that is not 16-128 letters, digits, hyphens or underscores`,
    );
  }
  return id;
}
