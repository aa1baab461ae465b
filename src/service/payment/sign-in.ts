/**
 * Sign-in-with-x (SIWx, CAIP-122) as the x402 `sign-in-with-x` extension: a 402 offers a fresh challenge, and a
 * request carrying the signed challenge in the SIGN-IN-WITH-X header proves which wallet asks. The service issues
 * every nonce itself, for one route and five minutes, and binds it to the first wallet that signs it: the proof
 * may be sent again for the next page of the same route until it expires, and by no other wallet.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  buildSIWxSchema,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  validateSIWxMessage,
  verifySIWxSignature,
  type EVMMessageVerifier,
  type SIWxExtension,
} from '@x402/extensions/sign-in-with-x';
import type { ServiceDb } from '../store/db';

export const SIGN_IN_SECONDS = 300;
const HEADER = SIGN_IN_WITH_X.toLowerCase();

export type SignInResult =
  | { kind: 'none' }
  | { kind: 'signed_in'; address: string }
  | { kind: 'refused'; reason: string; message: string };

export class SignIn {
  constructor(
    private readonly db: ServiceDb,
    private readonly network: string,
    /** Checks a contract wallet's signature on chain (EIP-1271 / ERC-6492); an EOA is checked without it. */
    private readonly verifyMessage: EVMMessageVerifier,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A fresh challenge for `resourceUrl`, to go into the 402's extensions under `sign-in-with-x`. */
  challenge(resourceUrl: string, statement: string): Record<string, SIWxExtension> {
    const url = new URL(resourceUrl);
    const nowMs = this.now();
    const nonce = randomBytes(16).toString('hex');
    const expiresAt = nowMs + SIGN_IN_SECONDS * 1000;
    this.db.prepare('DELETE FROM sign_in_nonces WHERE expires_at < ?').run(nowMs);
    this.db
      .prepare('INSERT INTO sign_in_nonces (nonce, path, expires_at) VALUES (?, ?, ?)')
      .run(nonce, url.pathname, expiresAt);
    return {
      [SIGN_IN_WITH_X]: {
        info: {
          domain: url.host,
          uri: url.toString(),
          statement,
          version: '1',
          nonce,
          issuedAt: new Date(nowMs).toISOString(),
          expirationTime: new Date(expiresAt).toISOString(),
          resources: [url.toString()],
        },
        supportedChains: [{ chainId: this.network, type: 'eip191' }],
        schema: buildSIWxSchema(),
      },
    };
  }

  /** Who signed the request's SIGN-IN-WITH-X header for this route, if anyone, and why a proof is refused. */
  async check(headers: IncomingHttpHeaders, origin: string, path: string): Promise<SignInResult> {
    const header = headers[HEADER];
    if (typeof header !== 'string' || header === '') return { kind: 'none' };
    let payload;
    try {
      payload = parseSIWxHeader(header.trim());
    } catch (error) {
      return refused('invalid_siwx_header', error instanceof Error ? error.message : String(error));
    }
    if (payload.chainId !== this.network)
      return refused('invalid_siwx_chain_id', `sign in on ${this.network}, not ${payload.chainId}`);
    const nonceRow = this.db
      .prepare<[string], { path: string; expires_at: number; address: string | null }>(
        'SELECT path, expires_at, address FROM sign_in_nonces WHERE nonce = ?',
      )
      .get(payload.nonce);
    const address = payload.address.toLowerCase();
    const validation = await validateSIWxMessage(payload, new URL(origin), {
      maxAge: SIGN_IN_SECONDS * 1000,
      checkNonce: () =>
        nonceRow !== undefined &&
        nonceRow.path === path &&
        nonceRow.expires_at >= this.now() &&
        (nonceRow.address === null || nonceRow.address === address),
    });
    if (!validation.isValid) return refused(validation.invalidReason, validation.invalidMessage);
    const verified = await verifySIWxSignature(payload, { evmVerifier: this.verifyMessage });
    if (!verified.isValid) return refused(verified.invalidReason, verified.invalidMessage);
    this.db
      .prepare('UPDATE sign_in_nonces SET address = ? WHERE nonce = ? AND address IS NULL')
      .run(address, payload.nonce);
    return { kind: 'signed_in', address: verified.payer.toLowerCase() };
  }
}

const refused = (reason: string, message: string): SignInResult => ({ kind: 'refused', reason, message });
