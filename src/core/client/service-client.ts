/** Typed calls to one Shared Report Purchase API deployment. */
import type { DeskFetch } from '../net/network';
import { HANDLE_NAME } from '../../shared/handle-name';
import { z } from 'zod';
import type { PaymentPayload } from '@x402/core/types';
import {
  ERROR,
  bundleSchema,
  paidSuccessSchema,
  reportMenuSchema,
  shelfEnvelopeSchema,
  repairShelfEntry,
  type Bundle,
  type PaidSuccess,
  type PaymentChallenge,
  type ReportMenu,
  type SettlementResponse,
  type ShelfList,
} from '../../shared/wire';
import type { Selection } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import type { ClockSample } from './clock-sample';
import { connect } from 'node:net';
import {
  DEFAULT_HTTP,
  exchange,
  parseJson,
  serviceError,
  type Contact,
  type HttpOptions,
  type RawAnswer,
  SERVICE_URL_REMEDY,
} from './http';
import { requireEncryptedOrLocal } from '../base/transport';
import { paymentHeaders, readChallenge, readRefusal, readSettlement } from './x402-wire';
import { errorCodeFrom } from '../../shared/error-codes';

export interface ServiceClientOptions {
  fetch?: DeskFetch;
  timeoutMs?: number;
  maxBytes?: number;
  /** Attempts for free routes (paid requests are never retried). */
  attempts?: number;
  /** First backoff between free-route attempts; it doubles each time. */
  backoffMs?: number;
  /** Waits between attempts; injectable so tests can see the backoff without waiting for it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told after every exchange whether the service answered (see Contact). */
  onContact?: (contact: Contact) => void;
  /** The desk's clock (ms since the epoch); the service's clock is measured against it. */
  now?: () => number;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DeskError('cancelled', 'The request was cancelled.', 'usage'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DeskError('cancelled', 'The request was cancelled.', 'usage'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Opens (and closes) a TCP connection to the service: proof it is reachable, without an HTTP request. */
export function probeConnection(baseUrl: string, timeoutMs: number): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(
        new DeskError(
          'service_unreachable',
          `Intel Desk cannot reach the service at ${url.host} (${reason}). Nothing was signed or sent; buy again when it is back.`,
          'network',
        ),
      );
    };
    socket.setTimeout(timeoutMs, () => fail(`no connection within ${timeoutMs / 1000} s`));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}

/** A challenge is a few hundred bytes; one of megabytes is refused before it is parsed. */
/** The reference service's route of a signed-in wallet's purchases (not in the spec: an addition of its own). */
export const PURCHASES_PATH = '/api/intel/purchases';

export const CHALLENGE_MAX_BYTES = 64 * 1024;

export interface PaidAnswer {
  body: PaidSuccess;
  /** The answer's exact text, kept so snapshots are stored byte-for-byte. */
  text: string;
  settlement: SettlementResponse | null;
}

export const bundlePutAnswerSchema = z.looseObject({ written: z.boolean(), bundle: bundleSchema });
export type BundlePutAnswer = z.infer<typeof bundlePutAnswerSchema>;

export function normalizeHandle(raw: string): string {
  const handle = raw.trim().replace(/^@/, '');
  if (!HANDLE_NAME.test(handle)) {
    throw new DeskError(
      'invalid_handle',
      `"${raw.slice(0, 80)}" is not a handle: use letters, digits and underscores.`,
      'usage',
    );
  }
  return handle;
}

/** The path and query of the paid route for a selection; identical for the quote and the payment. */
export function resourcePath(handle: string, selection: Selection): string {
  const query = new URLSearchParams({ username: normalizeHandle(handle) });
  if (selection.kind === 'all') {
    query.set('select', 'all');
  } else if (selection.kind === 'dates') {
    if (!selection.from && !selection.to) {
      throw new DeskError(
        'range_requires_from_to_or_ids',
        'Choose a start date, an end date, or both.',
        'usage',
      );
    }
    query.set('select', 'range');
    if (selection.from) query.set('from', selection.from);
    if (selection.to) query.set('to', selection.to);
  } else {
    query.set('select', 'range');
    query.set('ids', selection.ids.join(','));
  }
  return `/api/intel/reports?${query.toString()}`;
}

export class ServiceClient {
  readonly baseUrl: string;
  private readonly http: HttpOptions;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private lastClock: ClockSample | null = null;

  constructor(baseUrl: string, options: ServiceClientOptions = {}) {
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
      throw new DeskError('invalid_service_url', `"${baseUrl}" is not an http(s) URL.`, 'usage');
    }
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.http = {
      fetch: options.fetch ?? fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_HTTP.timeoutMs,
      maxBytes: options.maxBytes ?? DEFAULT_HTTP.maxBytes,
      ...(options.onContact ? { onContact: options.onContact } : {}),
      ...(options.now ? { now: options.now } : {}),
      onClock: (sample) => {
        this.lastClock = sample;
      },
    };
    this.attempts = options.attempts ?? 3;
    this.backoffMs = options.backoffMs ?? 250;
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** The service's clock against the desk's, from its latest answer with a `Date` header; null before one. */
  serviceClock(): ClockSample | null {
    return this.lastClock;
  }

  /** A TCP connection to the service, within the client's timeout (at most 5 s); throws service_unreachable. */
  async probe(): Promise<void> {
    requireEncryptedOrLocal('service', new URL(this.baseUrl).origin, SERVICE_URL_REMEDY);
    try {
      await probeConnection(this.baseUrl, Math.min(this.http.timeoutMs, 5_000));
      this.http.onContact?.({ reachable: true, reason: null });
    } catch (error) {
      if (error instanceof DeskError) this.http.onContact?.({ reachable: false, reason: error.message });
      throw error;
    }
  }

  private async free(
    path: string,
    signal?: AbortSignal,
    maxBytes = this.http.maxBytes,
    headers: Record<string, string> = {},
  ): Promise<RawAnswer> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      if (attempt > 0) await this.sleep(this.backoffMs * 2 ** (attempt - 1), signal);
      try {
        const answer = await exchange(
          `${this.baseUrl}${path}`,
          { method: 'GET', headers },
          { ...this.http, maxBytes, ...(signal ? { signal } : {}) },
        );
        if (answer.status < 500 && answer.status !== 429) return answer;
        lastError = serviceError(answer);
      } catch (error) {
        // A timeout already cost the whole deadline: waiting that long again would only delay the cached copy.
        if (!(error instanceof DeskError) || error.kind !== 'network' || error.code === 'network_timeout')
          throw error;
        lastError = error;
      }
    }
    throw lastError;
  }

  /** The shelf, with entries that could not be read at all left out and counted. */
  async list(signal?: AbortSignal): Promise<ShelfList & { skippedEntries: number }> {
    const answer = await this.free('/api/intel/list', signal);
    if (answer.status !== 200) throw serviceError(answer);
    const envelope = parseJson(answer, shelfEnvelopeSchema, 'shelf');
    const entries = envelope.entries.map(repairShelfEntry).filter((entry) => entry !== null);
    return { ...envelope, entries, skippedEntries: envelope.entries.length - entries.length };
  }

  /**
   * The shelf unless it is still the one tagged `etag` (the service answers 304 Not Modified): then null, and
   * the caller keeps the copy it already checked. A 100k-handle shelf is 22 MB that need not cross again.
   */
  async listIfChanged(
    etag: string | null,
    signal?: AbortSignal,
  ): Promise<{ shelf: ShelfList & { skippedEntries: number }; etag: string | null } | null> {
    const answer = await this.free(
      '/api/intel/list',
      signal,
      this.http.maxBytes,
      etag ? { 'If-None-Match': etag } : {},
    );
    if (answer.status === 304 && etag) return null;
    if (answer.status !== 200) throw serviceError(answer);
    const envelope = parseJson(answer, shelfEnvelopeSchema, 'shelf');
    const entries = envelope.entries.map(repairShelfEntry).filter((entry) => entry !== null);
    return {
      shelf: { ...envelope, entries, skippedEntries: envelope.entries.length - entries.length },
      etag: answer.headers.get('etag'),
    };
  }

  /** A page of what the signed-in wallet bought here (restore/); any answer, the caller reads it. */
  async purchasesPage(after: number, signIn: string | null, signal?: AbortSignal): Promise<RawAnswer> {
    return this.free(
      `${PURCHASES_PATH}${after > 0 ? `?after=${after}` : ''}`,
      signal,
      this.http.maxBytes,
      signIn ? { 'SIGN-IN-WITH-X': signIn } : {},
    );
  }

  async menu(handle: string, signal?: AbortSignal): Promise<ReportMenu> {
    const answer = await this.free(
      `/api/intel/reports?username=${encodeURIComponent(normalizeHandle(handle))}`,
      signal,
    );
    if (answer.status !== 200) throw serviceError(answer);
    return parseJson(answer, reportMenuSchema, 'report menu');
  }

  /** Asks the paid route without paying: the 402 challenge is the live price of exactly this selection. */
  async challenge(path: string, signal?: AbortSignal): Promise<PaymentChallenge> {
    const answer = await this.free(path, signal, Math.min(this.http.maxBytes, CHALLENGE_MAX_BYTES));
    if (answer.status === 200) {
      throw new DeskError(
        'service_unexpected_status',
        'The service delivered reports without asking for payment.',
        'service',
      );
    }
    if (answer.status !== 402) throw serviceError(answer);
    return readChallenge(answer);
  }

  /**
   * Sends the paid request exactly once, with the payload in PAYMENT-SIGNATURE (x402 v2), X-402-Payment and
   * X-Payment (the spec's) at once: whichever the service reads, one request carries one authorization, so it
   * can settle at most once, and a signed authorization never travels in a second request.
   */
  async pay(path: string, payment: PaymentPayload, signal?: AbortSignal): Promise<PaidAnswer> {
    const answer = await exchange(
      `${this.baseUrl}${path}`,
      { method: 'GET', headers: paymentHeaders(payment) },
      { ...this.http, ...(signal ? { signal } : {}) },
    );
    if (answer.status === 200) {
      return {
        body: parseJson(answer, paidSuccessSchema, 'paid answer'),
        text: answer.text,
        settlement: readSettlement(answer.headers),
      };
    }
    throw paymentRefusal(answer);
  }

  /** First-party read of a paid route with the library secret (spec 5.8): no payment is made. */
  async readWithSecretText(
    path: string,
    secret: string,
    signal?: AbortSignal,
  ): Promise<{ body: PaidSuccess; text: string }> {
    const answer = await exchange(
      `${this.baseUrl}${path}`,
      { method: 'GET', headers: { Authorization: `Bearer ${secret}` } },
      { ...this.http, ...(signal ? { signal } : {}) },
    );
    if (answer.status !== 200) throw serviceError(answer);
    return { body: parseJson(answer, paidSuccessSchema, 'report answer'), text: answer.text };
  }

  async bundleGet(handle: string, secret: string, signal?: AbortSignal): Promise<Bundle> {
    const answer = await exchange(
      `${this.baseUrl}/api/intel/bundle?username=${encodeURIComponent(normalizeHandle(handle))}`,
      { method: 'GET', headers: { Authorization: `Bearer ${secret}` } },
      { ...this.http, ...(signal ? { signal } : {}) },
    );
    if (answer.status !== 200) throw serviceError(answer);
    return parseJson(answer, bundleSchema, 'dossier');
  }

  async bundlePut(bundle: Bundle, secret: string, signal?: AbortSignal): Promise<BundlePutAnswer> {
    const answer = await exchange(
      `${this.baseUrl}/api/intel/bundle?username=${encodeURIComponent(normalizeHandle(bundle.username))}`,
      {
        method: 'PUT',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(bundle),
      },
      { ...this.http, ...(signal ? { signal } : {}) },
    );
    if (answer.status !== 200) throw serviceError(answer);
    return parseJson(answer, bundlePutAnswerSchema, 'dossier save answer');
  }
}

/**
 * A paid request answered without the reports: the service's own error where it sent one (the spec's JSON
 * errors keep their codes and figures), and otherwise the reason an x402 v2 server put in its headers.
 */
function paymentRefusal(answer: RawAnswer): DeskError {
  const spec = serviceError(answer);
  const refusal = readRefusal(answer);
  const specific = spec.code !== 'service_unexpected_status' && spec.code !== ERROR.paymentRequired;
  // The spec's own codes keep their messages and figures; a facilitator's reason the desk can explain is said in words.
  if (!refusal || (specific && refusal.explained === null)) {
    return refusal?.transaction && !spec.details['transaction']
      ? new DeskError(spec.code, spec.message, spec.kind, {
          ...spec.details,
          transaction: refusal.transaction,
        })
      : spec;
  }
  const words = refusal.explained ? `${refusal.explained} (${refusal.reason})` : refusal.reason;
  return new DeskError(
    errorCodeFrom(refusal.reason),
    `The service refused the payment: ${words}, HTTP ${answer.status}.`,
    'service',
    {
      status: answer.status,
      serviceMessage: refusal.reason,
      ...(refusal.transaction ? { transaction: refusal.transaction } : {}),
    },
  );
}
