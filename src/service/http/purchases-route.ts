/**
 * GET /api/intel/purchases: what a wallet bought here, answers included, for the wallet alone. An x402 route
 * that takes no payment (`accepts: []`) and asks the caller to sign in with x; `after` pages through them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SettledPurchase, SettledPurchases } from '../payment/settled-purchases';
import type { SignIn } from '../payment/sign-in';
import { HttpError, sendJson, sendRawJson } from './respond';

export interface PurchasesRouteDeps {
  settled: SettledPurchases;
  signIn: SignIn;
  /** The origin every URL in a challenge names (public-url.ts). */
  publicUrl: () => string;
  /** Purchases per page at most (and never more than PAGE_BYTES of answers). */
  pageLimit?: number | undefined;
}

const PAGE_LIMIT = 500;
export const RESTORE_STATEMENT =
  'Sign in to download again the reports this wallet bought. This costs nothing.';

function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

/** A 402 asking to sign in: the x402 challenge of an auth-only route, with the reason the last proof failed. */
export function sendSignInRequired(
  res: ServerResponse,
  signIn: SignIn,
  resourceUrl: string,
  description: string,
  refusal: { reason: string; message: string } | null,
): void {
  const challenge = {
    x402Version: 2,
    error: refusal ? refusal.reason : 'Sign in required',
    ...(refusal ? { message: refusal.message } : {}),
    resource: { url: resourceUrl, description, mimeType: 'application/json' },
    accepts: [],
    extensions: signIn.challenge(resourceUrl, RESTORE_STATEMENT),
  };
  sendJson(res, 402, challenge, { 'PAYMENT-REQUIRED': encodeHeader(challenge) });
}

function after(url: URL): number {
  const raw = url.searchParams.get('after');
  if (raw === null || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, 'invalid_after', 'after must be a whole number');
  return Number(raw);
}

/** The answer travels as a JSON string, so the reports inside it keep their bytes and hash as first sent. */
function purchaseJson(p: SettledPurchase): string {
  return JSON.stringify({
    resource: p.resource,
    username: p.username,
    reportCount: p.reportCount,
    amount: p.amount,
    payTo: p.payTo,
    network: p.network,
    asset: p.asset,
    nonce: p.nonce,
    validAfter: p.validAfter,
    validBefore: p.validBefore,
    transaction: p.txHash,
    settledAt: p.settledAt,
    answer: p.body,
  });
}

export async function handlePurchases(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: PurchasesRouteDeps,
): Promise<void> {
  const from = after(url);
  const resourceUrl = `${deps.publicUrl()}${url.pathname}`;
  const signedIn = await deps.signIn.check(req.headers, deps.publicUrl(), url.pathname);
  if (signedIn.kind !== 'signed_in') {
    sendSignInRequired(
      res,
      deps.signIn,
      resourceUrl,
      'the purchases of the wallet that signs in',
      signedIn.kind === 'refused' ? signedIn : null,
    );
    return;
  }
  const { purchases, more } = deps.settled.page(signedIn.address, from, deps.pageLimit ?? PAGE_LIMIT);
  const last = purchases.at(-1);
  const next = more && last ? last.seq : null;
  sendRawJson(
    res,
    200,
    `{"payer":${JSON.stringify(signedIn.address)},"purchases":[${purchases.map(purchaseJson).join(',')}],"next":${JSON.stringify(next)}}`,
  );
}
