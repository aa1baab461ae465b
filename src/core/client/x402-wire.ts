/**
 * The x402 v2 HTTP transport as the desk reads and writes it. The base64 header codecs come from the official
 * SDK (`@x402/core/http`), so the wire format cannot drift from what x402 servers expect; every decoded value is
 * still checked with the desk's own zod schemas before anything trusts it (decision 0021).
 */
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import {
  paymentChallengeSchema,
  settlementResponseSchema,
  transactionHash,
  type ChallengeExtensions,
  type PaymentChallenge,
  type SettlementResponse,
} from '../../shared/wire';
import { DeskError, refused } from '../base/errors';
import type { RawAnswer } from './http';

/** The headers one paid request carries: x402 v2's own, and the spec's preferred and fallback names (5.4). */
export const PAYMENT_HEADER_NAMES = ['PAYMENT-SIGNATURE', 'X-402-Payment', 'X-Payment'] as const;

/** The same payload under every name: one request, one authorization, so at most one settlement. */
export function paymentHeaders(payload: PaymentPayload): Record<string, string> {
  const value = encodePaymentSignatureHeader(payload);
  return Object.fromEntries(PAYMENT_HEADER_NAMES.map((name) => [name, value]));
}

function issueAt(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'the top level';
  return `${issue.path.map(String).join('.') || 'the top level'}: ${issue.message}`;
}

function challengeFromHeader(value: string): PaymentChallenge {
  let json: unknown;
  try {
    json = decodePaymentRequiredHeader(value.trim());
  } catch {
    throw new DeskError(
      'service_malformed',
      "The service's PAYMENT-REQUIRED header is not base64-encoded JSON.",
      'service',
    );
  }
  const parsed = paymentChallengeSchema.safeParse(json);
  if (!parsed.success) {
    throw new DeskError(
      'service_malformed',
      `The service's payment challenge (PAYMENT-REQUIRED header) is malformed at ${issueAt(parsed.error)}.`,
      'service',
    );
  }
  return parsed.data;
}

/** The body's challenge, or null when the body holds none (an official x402 server answers `{}`). */
function challengeFromBody(text: string): PaymentChallenge | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  if (!('x402Version' in json) && !('accepts' in json)) return null;
  const parsed = paymentChallengeSchema.safeParse(json);
  if (!parsed.success) {
    throw new DeskError(
      'service_malformed',
      `The service's payment challenge is malformed at ${issueAt(parsed.error)}.`,
      'service',
    );
  }
  return parsed.data;
}

/** JSON with object keys sorted, so two encodings of the same terms compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const SPEC_FACTS = ['chainId', 'tokenDecimals', 'unitPriceUsd', 'reportCount', 'select', 'resource'] as const;

function disagreement(header: PaymentChallenge, body: PaymentChallenge): string | null {
  if (header.x402Version !== body.x402Version) {
    return `x402 version ${header.x402Version} in the header, ${body.x402Version} in the body`;
  }
  if (canonical(header.accepts) !== canonical(body.accepts)) return 'different payment options';
  for (const fact of SPEC_FACTS) {
    const a = header.extensions?.[fact];
    const b = body.extensions?.[fact];
    if (a !== undefined && b !== undefined && a !== b) {
      return `${fact} ${JSON.stringify(a)} in the header, ${JSON.stringify(b)} in the body`;
    }
  }
  return null;
}

/**
 * The 402 challenge from the `PAYMENT-REQUIRED` header (x402 v2), the body (the spec), or both. Either may be
 * empty; when both carry one they must offer the same terms, or the desk refuses before anything is signed.
 */
export function readChallenge(answer: RawAnswer): PaymentChallenge {
  const headerValue = answer.headers.get('payment-required');
  const fromHeader = headerValue ? challengeFromHeader(headerValue) : null;
  const fromBody = challengeFromBody(answer.text);
  if (fromHeader && fromBody) {
    const conflict = disagreement(fromHeader, fromBody);
    if (conflict) {
      throw refused(
        'challenge_disagrees',
        `The service's PAYMENT-REQUIRED header and its answer's body ask for different payments (${conflict}). Nothing was signed.`,
      );
    }
    const extensions: ChallengeExtensions = { ...fromHeader.extensions, ...fromBody.extensions };
    return { ...fromHeader, extensions };
  }
  const challenge = fromHeader ?? fromBody;
  if (!challenge) {
    throw new DeskError(
      'challenge_missing',
      'The service asked for payment (HTTP 402) but sent no payment challenge, neither in a PAYMENT-REQUIRED header nor in its body.',
      'service',
      { status: answer.status },
    );
  }
  return challenge;
}

function settlementFrom(value: string | null): SettlementResponse | null {
  if (!value) return null;
  try {
    const parsed = settlementResponseSchema.safeParse(decodePaymentResponseHeader(value.trim()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The settlement a paid answer names, from `PAYMENT-RESPONSE` (v2) or `X-Payment-Response` (the spec's). */
export function readSettlement(headers: Headers): SettlementResponse | null {
  return settlementFrom(headers.get('payment-response')) ?? settlementFrom(headers.get('x-payment-response'));
}

/** Reasons x402 facilitators give, in words a person can act on. */
const FACILITATOR_REASONS: Record<string, string> = {
  'Payment required': 'it answered with a new payment challenge, as if no payment had been sent',
  insufficient_funds: "the wallet's USDC balance is below the price",
  invalid_exact_evm_insufficient_balance: "the wallet's USDC balance is below the price",
  invalid_exact_evm_signature: 'the payment signature does not match the payer',
  invalid_exact_evm_nonce_already_used: 'this authorization was already used',
  invalid_exact_evm_recipient_mismatch: 'the authorization pays someone other than the service',
  invalid_exact_evm_token_name_mismatch: 'the signature was made for another token name',
  invalid_exact_evm_token_version_mismatch: 'the signature was made for another token version',
  invalid_exact_evm_authorization_value_mismatch: 'the authorized amount is not the price',
  invalid_exact_evm_valid_before: 'the authorization closes too soon',
  invalid_exact_evm_valid_after: 'the authorization is not valid yet',
};

/** A reason as sent, trimmed to one printable line: it is the service's text, shown to a person. */
function printable(reason: string): string {
  return (
    reason
      .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
      .trim()
      .slice(0, 200) || 'no reason given'
  );
}

export interface Refusal {
  /** The reason as the service or its facilitator named it (`insufficient_funds`, `no_matching_reports`…). */
  reason: string;
  /** The reason in words, when the desk knows it. */
  explained: string | null;
  /** A settlement transaction the answer names, if any: evidence to check on chain. */
  transaction: string | null;
}

/**
 * Why a paid request came back without the reports, as the answer says it: a failed settlement's
 * `PAYMENT-RESPONSE` (`errorReason`), the fresh challenge's `error` in `PAYMENT-REQUIRED` (x402 v2's verify
 * failure), or the spec's JSON error body. Null when the answer names no reason at all.
 */
export function readRefusal(answer: RawAnswer): Refusal | null {
  const settlement = readSettlement(answer.headers);
  const fromBody = (() => {
    try {
      const json: unknown = JSON.parse(answer.text);
      if (json && typeof json === 'object' && 'error' in json && typeof json.error === 'string') {
        const transaction =
          'transaction' in json && typeof json.transaction === 'string' ? json.transaction : null;
        return { reason: json.error, transaction };
      }
    } catch {
      // Not JSON: the headers may still say why.
    }
    return null;
  })();
  let reason: string | null = null;
  if (settlement && !settlement.success) reason = settlement.errorReason ?? settlement.errorMessage ?? null;
  if (!reason) {
    const header = answer.headers.get('payment-required');
    if (header) {
      try {
        reason = challengeFromHeader(header).error ?? null;
      } catch {
        // A malformed header names no reason; the body may.
      }
    }
  }
  reason ??= fromBody?.reason ?? null;
  if (!reason) return null;
  const transaction = transactionHash(settlement?.transaction) ?? transactionHash(fromBody?.transaction);
  const shown = printable(reason);
  return { reason: shown, explained: FACILITATOR_REASONS[shown] ?? null, transaction };
}
