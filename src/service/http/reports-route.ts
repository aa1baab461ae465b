/** GET /api/intel/reports: the free menu, and the paid all/range retrieval behind an x402 challenge. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR, type ReportSelect } from '../../shared/wire';
import { HANDLE_PATTERN, handleKey, type HandleStore, type RangeFilter } from '../store/handles';
import {
  paymentChallenge,
  paymentRequirement,
  baseUnitsToUsd,
  type PaymentTerms,
} from '../payment/challenge';
import { decodePayment, findPaymentHeader, PaymentDecodeError } from '../payment/decode';
import type { PaymentVerifier } from '../payment/verify';
import type { PaidAnswers } from '../payment/paid-answers';
import type { SettledPurchases } from '../payment/settled-purchases';
import type { SignIn } from '../payment/sign-in';
import { HttpError, sendEncoded, sendJson, sendRawJson } from './respond';
import { librarySecretMatches, presentedLibrarySecret } from './library-secret';

export interface ReportsRouteDeps {
  store: HandleStore;
  terms: PaymentTerms;
  verifier: PaymentVerifier;
  /** Paid answers kept by payment id; without it the challenge offers no `payment-identifier`. */
  paidAnswers?: PaidAnswers | undefined;
  /** Settled purchases kept for good: a wallet that signs in (SIWx) reads what it bought here again, free. */
  restore?: { settled: SettledPurchases; signIn: SignIn } | undefined;
  librarySecret: string;
  /** The origin every URL in a challenge names (public-url.ts). */
  publicUrl: () => string;
}

const READ_AGAIN_STATEMENT = 'Sign in to read again, free, what this wallet bought here.';

export function requireHandle(url: URL): string {
  const raw = url.searchParams.get('username');
  if (raw === null || raw.trim() === '')
    throw new HttpError(400, 'missing_username', 'the username parameter is required');
  if (!HANDLE_PATTERN.test(raw.trim())) {
    throw new HttpError(
      400,
      'invalid_username',
      'username must be 1-64 letters, digits or underscores, optionally after @',
    );
  }
  return handleKey(raw);
}

function rangeFilter(url: URL): RangeFilter {
  const filter: RangeFilter = {};
  const from = url.searchParams.get('from');
  const to = url.searchParams.get('to');
  const ids = url.searchParams.get('ids');
  if (from !== null && from !== '') filter.from = from;
  if (to !== null && to !== '') filter.to = to;
  if (ids !== null) {
    const list = ids
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id.length > 0);
    if (list.length > 1000) throw new HttpError(400, 'too_many_ids', 'at most 1000 ids per request');
    if (list.length > 0) filter.ids = list;
  }
  if (filter.from === undefined && filter.to === undefined && filter.ids === undefined) {
    throw new HttpError(400, ERROR.rangeRequiresFromToOrIds, 'select=range needs from, to or ids');
  }
  return filter;
}

function paidBody(
  username: string,
  select: ReportSelect,
  reports: string[],
  chargedUsd: number | null,
): string {
  const charged = chargedUsd === null ? '' : `,"chargedUsd":${JSON.stringify(chargedUsd)}`;
  return `{"username":${JSON.stringify(username)},"select":"${select}","reportCount":${reports.length}${charged},"reports":[${reports.join(',')}]}`;
}

function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

export async function handleReports(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: ReportsRouteDeps,
): Promise<void> {
  const key = requireHandle(url);
  const selectParam = url.searchParams.get('select');
  if (selectParam === null) {
    const menu = deps.store.menuEncoded(key);
    if (!menu) throw new HttpError(404, 'unknown_handle', `no shared reports are held for ${key}`);
    sendEncoded(req, res, menu);
    return;
  }
  const handle = deps.store.find(key);
  if (selectParam !== 'all' && selectParam !== 'range') {
    throw new HttpError(400, 'invalid_select', 'select must be "all" or "range"');
  }
  const select: ReportSelect = selectParam;
  const filter = select === 'all' ? 'all' : rangeFilter(url);
  if (!handle) throw new HttpError(404, 'unknown_handle', `no shared reports are held for ${key}`);
  const reports = deps.store.select(key, filter);
  if (reports.length === 0)
    throw new HttpError(404, ERROR.noMatchingReports, 'no report matches the filters');

  const secret = presentedLibrarySecret(req.headers);
  if (secret !== null) {
    if (!librarySecretMatches(secret, deps.librarySecret)) {
      throw new HttpError(401, 'invalid_library_secret', 'the library secret is not accepted');
    }
    sendRawJson(res, 200, paidBody(handle.username, select, reports, null));
    return;
  }

  const resourcePath = `${url.pathname}${url.search}`;
  const resourceUrl = `${deps.publicUrl()}${resourcePath}`;
  const found = findPaymentHeader(req.headers);
  if (!found) {
    const signedIn = deps.restore
      ? await deps.restore.signIn.check(req.headers, deps.publicUrl(), url.pathname)
      : ({ kind: 'none' } as const);
    if (signedIn.kind === 'signed_in') {
      const bought = deps.restore?.settled.latestFor(signedIn.address, resourcePath);
      if (bought) {
        sendRawJson(res, 200, bought.body);
        return;
      }
    }
    const challenge = paymentChallenge(
      deps.terms,
      select,
      reports.length,
      resourcePath,
      resourceUrl,
      deps.paidAnswers !== undefined,
    );
    const offered = deps.restore
      ? {
          ...challenge,
          ...(signedIn.kind === 'signed_in'
            ? { error: 'This wallet has not bought this selection here; pay to read it.' }
            : signedIn.kind === 'refused'
              ? { error: `${signedIn.reason}: ${signedIn.message}` }
              : {}),
          extensions: {
            ...challenge.extensions,
            ...deps.restore.signIn.challenge(resourceUrl, READ_AGAIN_STATEMENT),
          },
        }
      : challenge;
    sendJson(res, 402, offered, { 'PAYMENT-REQUIRED': encodeHeader(offered) });
    return;
  }
  let payment;
  try {
    payment = decodePayment(found.header, found.value);
  } catch (error) {
    if (error instanceof PaymentDecodeError) throw new HttpError(400, error.code, error.message);
    throw error;
  }
  const requirement = paymentRequirement(deps.terms, reports.length);
  const paymentId = deps.paidAnswers ? payment.paymentId : null;
  if (deps.paidAnswers && paymentId !== null) {
    const claim = deps.paidAnswers.claim(paymentId, payment, resourcePath);
    if (claim.kind === 'answered') {
      // The identical payment sent again: its answer as first sent, and no second settlement.
      sendPaidAnswer(res, claim.answer.body, claim.answer.paymentResponse);
      return;
    }
    if (claim.kind === 'in_progress') {
      throw new HttpError(
        409,
        ERROR.paymentAlreadyUsed,
        'this payment is still being settled; send it again to get its answer',
      );
    }
    if (claim.kind === 'other_payment') {
      throw new HttpError(
        409,
        ERROR.paymentAlreadyUsed,
        'this payment id was already used for another payment',
      );
    }
  }
  let outcome;
  try {
    outcome = await deps.verifier.settle(payment, requirement, resourcePath);
  } catch (error) {
    if (paymentId !== null) deps.paidAnswers?.release(paymentId);
    throw error;
  }
  if (!outcome.ok) {
    if (paymentId !== null) deps.paidAnswers?.release(paymentId);
    const { status, error, message, ...extra } = outcome.failure;
    throw new HttpError(status, error, message, extra);
  }
  const settlement = encodeHeader({
    success: true,
    transaction: outcome.transaction,
    network: deps.terms.network,
    payer: outcome.payer,
  });
  const body = paidBody(handle.username, select, reports, baseUnitsToUsd(outcome.amount));
  deps.restore?.settled.record({
    payment,
    resource: resourcePath,
    username: handle.username,
    reportCount: reports.length,
    network: deps.terms.network,
    asset: deps.terms.asset,
    txHash: outcome.transaction,
    body,
  });
  // Kept before it is sent: an answer lost on its way is still here for the same payment sent again.
  if (paymentId !== null) deps.paidAnswers?.keep(paymentId, { body, paymentResponse: settlement });
  sendPaidAnswer(res, body, settlement);
}

function sendPaidAnswer(res: ServerResponse, body: string, settlement: string): void {
  sendRawJson(res, 200, body, {
    'X-Payment-Response': settlement,
    'PAYMENT-RESPONSE': settlement,
    'Access-Control-Expose-Headers': 'X-Payment-Response, PAYMENT-RESPONSE',
  });
}
