/**
 * The desk's side of sign-in-with-x (SIWx, CAIP-122): a 402 that offers the `sign-in-with-x` extension is
 * answered with the wallet's signature over the challenge, sent in the SIGN-IN-WITH-X header. The message is the
 * SDK's (EIP-4361 for EVM chains); the challenge must name the origin the desk asked, or nothing is signed.
 */
import { z } from 'zod';
import {
  assertSIWxChallengeBoundToOrigin,
  createSIWxMessage,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type CompleteSIWxInfo,
} from '@x402/extensions/sign-in-with-x';
import type { RawAnswer } from '../client/http';
import { readChallenge } from '../client/x402-wire';
import { DeskError } from '../base/errors';

export const SIGN_IN_HEADER = SIGN_IN_WITH_X.toUpperCase();

const challengeSchema = z.looseObject({
  error: z.string().optional(),
  message: z.string().optional(),
  extensions: z
    .looseObject({
      [SIGN_IN_WITH_X]: z
        .looseObject({
          info: z.looseObject({
            domain: z.string().max(300),
            uri: z.string().max(2048),
            statement: z.string().max(1000).optional(),
            version: z.string().max(10),
            nonce: z.string().min(8).max(200),
            issuedAt: z.string().max(40),
            expirationTime: z.string().max(40).optional(),
            notBefore: z.string().max(40).optional(),
            requestId: z.string().max(200).optional(),
            resources: z.array(z.string().max(2048)).max(20).optional(),
          }),
          supportedChains: z
            .array(z.looseObject({ chainId: z.string().max(100), type: z.string().max(20) }))
            .max(50),
        })
        .optional(),
    })
    .optional(),
});

/** A challenge to sign: the message the wallet signs, and the fields the header repeats beside the signature. */
export interface SignInRequest {
  info: CompleteSIWxInfo;
  address: `0x${string}`;
  message: string;
}

/** What the service said about the proof it refused last, if anything; null for a first challenge. */
export function signInRefusal(answer: RawAnswer): string | null {
  let challenge: unknown;
  try {
    challenge = readChallenge(answer);
  } catch {
    return null;
  }
  const parsed = challengeSchema.safeParse(challenge);
  if (!parsed.success || !parsed.data.error?.startsWith('invalid_siwx')) return null;
  return parsed.data.message ? `${parsed.data.error}: ${parsed.data.message}` : parsed.data.error;
}

/**
 * The sign-in challenge of a 402 for `requestUrl`, for an EVM wallet at `address`; null when the answer offers
 * none (the service does not speak SIWx). A challenge for another origin, or only for non-EVM chains, is refused.
 */
export function signInRequest(
  answer: RawAnswer,
  requestUrl: string,
  address: `0x${string}`,
): SignInRequest | null {
  // The 402's challenge as any payment's is read: header and body, which must agree (x402-wire.ts).
  const parsed = challengeSchema.safeParse(readChallenge(answer));
  const offer = parsed.success ? parsed.data.extensions?.[SIGN_IN_WITH_X] : undefined;
  if (!offer) return null;
  const chain = offer.supportedChains.find((c) => /^eip155:\d+$/.test(c.chainId) && c.type === 'eip191');
  if (!chain) {
    throw new DeskError(
      'sign_in_unsupported_chain',
      `The service asks to sign in on ${offer.supportedChains.map((c) => c.chainId).join(', ') || 'no chain'}; this wallet signs on EVM chains only.`,
      'service',
    );
  }
  const info: CompleteSIWxInfo = { ...offer.info, chainId: chain.chainId, type: 'eip191' };
  try {
    assertSIWxChallengeBoundToOrigin(info, requestUrl);
  } catch {
    // Most often an honest service behind a gateway, naming the address it listens on; it may also be a site
    // relaying another's sign-in, which is why nothing is signed either way.
    const asked = new URL(requestUrl).origin;
    const named = announced(info, asked);
    throw new DeskError(
      'sign_in_other_origin',
      `The service announces another address (${named}) than the one the desk asked (${asked}), so nothing was signed. A service behind a gateway or proxy must be given its public URL (the reference service: INTEL_DESK_SERVICE_PUBLIC_URL=${asked} or --public-url ${asked}). Otherwise the address may be another site's: sign in only at the service's own address.`,
      'service',
      { asked, announced: named },
    );
  }
  return { info, address, message: createSIWxMessage(info, address) };
}

/** The address a challenge names that is not the one asked, for a person to read: its URI's origin or its domain. */
function announced(info: CompleteSIWxInfo, asked: string): string {
  try {
    const origin = new URL(info.uri).origin;
    if (origin !== asked) return origin;
  } catch {
    return JSON.stringify(info.uri.slice(0, 200));
  }
  return JSON.stringify(info.domain.slice(0, 300));
}

/** The SIGN-IN-WITH-X header value: the challenge's fields, the wallet's address and its signature. */
export function signInHeader(request: SignInRequest, signature: `0x${string}`): string {
  const { info } = request;
  return encodeSIWxHeader({
    domain: info.domain,
    address: request.address,
    statement: info.statement,
    uri: info.uri,
    version: info.version,
    chainId: info.chainId,
    type: info.type,
    nonce: info.nonce,
    issuedAt: info.issuedAt,
    expirationTime: info.expirationTime,
    notBefore: info.notBefore,
    requestId: info.requestId,
    resources: info.resources,
    signatureScheme: info.signatureScheme,
    signature,
  });
}
