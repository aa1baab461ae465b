/**
 * One HTTP exchange with the service: JSON only, a deadline, a size cap read while streaming, and errors a
 * person can act on. Retries belong to the caller: free routes retry, paid requests never do.
 */
import type { DeskFetch } from '../net/network';
import { formatUnitsUsd, usdNumberToUnits } from '../../shared/money';
import type { z } from 'zod';
import { DeskError } from '../base/errors';
import { errorBodySchema, insufficientPaymentBodySchema } from '../../shared/wire';
import { serviceSample, type ClockSample } from './clock-sample';
import { errorCodeFrom } from '../../shared/error-codes';
import { requireEncryptedOrLocal } from '../base/transport';

/** How a person gives the service another address, for the refusal of one in plain http. */
export const SERVICE_URL_REMEDY = 'in Settings (or for one command with --service)';

export interface HttpOptions {
  fetch: DeskFetch;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Told after every exchange whether the service answered at all (any HTTP status counts as an answer). */
  onContact?: (contact: Contact) => void;
  /** The desk's clock (ms), for timing the exchange against the service's `Date` header. */
  now?: () => number;
  /** Told the service's clock against the desk's, from every answer that carries a `Date` header. */
  onClock?: (sample: ClockSample) => void;
}

export interface Contact {
  reachable: boolean;
  /** Why the service could not be reached, when it could not. */
  reason: string | null;
}

/** Error codes (anywhere in the cause chain) that mean no connection was made, so no byte of the request left. */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCodes(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== 'object' || depth > 5) return [];
  const own = 'code' in error && typeof error.code === 'string' ? [error.code] : [];
  const nested = 'errors' in error && Array.isArray(error.errors) ? error.errors : [];
  return [
    ...own,
    ...causeCodes('cause' in error ? error.cause : undefined, depth + 1),
    ...nested.flatMap((inner: unknown) => causeCodes(inner, depth + 1)),
  ];
}

function causeMessages(error: unknown, depth = 0): string[] {
  if (!(error instanceof Error) || depth > 5) return [];
  return [error.message, ...causeMessages(error.cause, depth + 1)];
}

/** Error codes (anywhere in the cause chain) that mean the service answered with headers too large to read. */
const HEADER_OVERFLOWS = new Set(['UND_ERR_HEADERS_OVERFLOW', 'HPE_HEADER_OVERFLOW']);

/** True when the failure happened before a connection existed: the request provably never left. */
export function neverConnected(error: unknown): boolean {
  const codes = causeCodes(error);
  return codes.length > 0 && codes.every((code) => CONNECT_FAILURES.has(code));
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export const DEFAULT_HTTP: Omit<HttpOptions, 'fetch'> = { timeoutMs: 20_000, maxBytes: 32 * 1024 * 1024 };

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new DeskError(
      'service_oversize',
      `The service's answer is too large (${declared} bytes, over the ${maxBytes}-byte limit); it was dropped.`,
      'service',
    );
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new DeskError(
        'service_oversize',
        `The service's answer is too large (more than ${maxBytes} bytes); it was dropped.`,
        'service',
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function exchange(url: string, init: RequestInit, options: HttpOptions): Promise<RawAnswer> {
  // A service saved before the rule (decision 0040) is refused here, at use, before any byte leaves.
  requireEncryptedOrLocal('service', new URL(url).origin, SERVICE_URL_REMEDY);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers = new Headers(init.headers);
  // Browser-like user agents may get an HTML paywall; the desk always asks for JSON.
  headers.set('Accept', 'application/json');
  let answered = false;
  const now = options.now ?? Date.now;
  try {
    const sentAt = now();
    const response = await options.fetch(url, { ...init, headers, signal, redirect: 'error' });
    answered = true;
    const clock = serviceSample(response.headers, sentAt, now());
    if (clock) options.onClock?.(clock);
    options.onContact?.({ reachable: true, reason: null });
    return {
      status: response.status,
      headers: response.headers,
      text: await readCapped(response, options.maxBytes),
    };
  } catch (error) {
    if (error instanceof DeskError) {
      // The network's own refusals (a proxy, a certificate: net/network-errors.ts) mean no answer came.
      if (error.kind === 'network') options.onContact?.({ reachable: false, reason: error.message });
      throw error;
    }
    const failure = networkError(url, error, options, timeout, answered);
    if (failure.kind === 'network') options.onContact?.({ reachable: false, reason: failure.message });
    else if (failure.kind === 'service') options.onContact?.({ reachable: true, reason: null });
    throw failure;
  }
}

function networkError(
  url: string,
  error: unknown,
  options: HttpOptions,
  timeout: AbortSignal,
  answered: boolean,
): DeskError {
  const host = URL.canParse(url) ? new URL(url).host : url;
  if (options.signal?.aborted)
    return new DeskError('cancelled', 'The request was cancelled.', 'usage', {}, { cause: error });
  if (timeout.aborted) {
    return new DeskError(
      'network_timeout',
      `The service at ${host} did not answer within ${options.timeoutMs / 1000} s.`,
      'network',
      {},
      { cause: error },
    );
  }
  if (causeMessages(error).some((message) => /redirect/i.test(message))) {
    return new DeskError(
      'service_unexpected_status',
      `The service at ${host} answered with a redirect, which Intel Desk does not follow.`,
      'service',
      {},
      { cause: error },
    );
  }
  // The service did answer, with headers (a challenge, say) too large to read: that is its fault, not the network's.
  if (causeCodes(error).some((code) => HEADER_OVERFLOWS.has(code))) {
    return new DeskError(
      'service_oversize',
      `The service at ${host} sent an answer too large to read (its headers alone are over the limit); it was dropped.`,
      'service',
      {},
      { cause: error },
    );
  }
  if (!answered && neverConnected(error)) {
    return new DeskError(
      'network_unreachable',
      `Cannot reach the service at ${host}.`,
      'network',
      { notSent: true },
      { cause: error },
    );
  }
  return new DeskError(
    answered ? 'network_interrupted' : 'network_failed',
    answered
      ? `The connection to the service at ${host} broke while its answer was arriving.`
      : `The connection to the service at ${host} failed before it answered.`,
    'network',
    {},
    { cause: error },
  );
}

export function parseJson<T extends z.ZodType>(answer: RawAnswer, schema: T, what: string): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    throw new DeskError('service_malformed', `The service's ${what} is not valid JSON.`, 'service');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join('.') || 'the top level' : 'the top level';
    throw new DeskError(
      'service_malformed',
      `The service's ${what} is malformed at ${where}: ${issue?.message ?? ''}.`,
      'service',
    );
  }
  return parsed.data;
}

/** Messages for the spec's error values (section 7) and the reference service's own. */
const KNOWN_ERRORS: Record<string, string> = {
  range_requires_from_to_or_ids: 'A range needs a start date, an end date or report ids.',
  no_matching_reports: 'No report matches this selection.',
  payment_already_used: 'The service says this payment was already used; nothing more was charged.',
  insufficient_payment: 'The service says the payment is below the price.',
  invalid_signature: 'The service rejected the payment signature.',
  payee_mismatch: 'The service rejected the payment: it names another payee.',
  insufficient_balance: 'The wallet does not hold enough USDC for this purchase.',
  unknown_handle: 'The service holds no reports for this handle.',
  invalid_username: 'That is not a valid handle.',
  missing_username: 'A handle is required.',
  invalid_library_secret: 'The service does not accept the library secret.',
  library_secret_required: 'This needs the library secret (Settings).',
};

/** Turns a non-2xx answer into a DeskError carrying the service's own error value as its code. */
export function serviceError(answer: RawAnswer): DeskError {
  let body: (Record<string, unknown> & { error: string; message?: string | undefined }) | null = null;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(answer.text));
    if (parsed.success) body = parsed.data;
  } catch {
    body = null;
  }
  if (!body) {
    return new DeskError(
      'service_unexpected_status',
      `The service answered HTTP ${answer.status} without an explanation.`,
      'service',
      {
        status: answer.status,
      },
    );
  }
  const shortfall = insufficientPaymentBodySchema.safeParse(body);
  if (shortfall.success) {
    const { requiredUsd, paidUsd } = shortfall.data;
    // The service states USD as JSON numbers: shown from their decimal form, as written when it is no amount.
    const shown = (usd: number) => {
      const units = usdNumberToUnits(usd);
      return units === null ? `${usd} USD` : formatUnitsUsd(units);
    };
    return new DeskError(
      errorCodeFrom(body.error),
      `The service says the payment is below the price: ${shown(requiredUsd)} required, ${shown(paidUsd)} paid.`,
      'service',
      { status: answer.status, requiredUsd, paidUsd },
    );
  }
  const known = KNOWN_ERRORS[body.error];
  const message =
    known ?? `The service refused the request: ${body.message ?? body.error} (HTTP ${answer.status}).`;
  // A service whose settlement was broadcast but not confirmed names the transaction; keep it as evidence.
  const transaction = typeof body['transaction'] === 'string' ? body['transaction'] : undefined;
  return new DeskError(errorCodeFrom(body.error), message, 'service', {
    status: answer.status,
    serviceMessage: body.message,
    ...(transaction ? { transaction } : {}),
  });
}
