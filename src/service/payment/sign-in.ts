/**
 * Sign-in-with-x (SIWx, CAIP-122) as the x402 `sign-in-with-x` extension: a 402 offers a fresh challenge, and a
 * request carrying the signed challenge in the SIGN-IN-WITH-X header proves which wallet asks. The service issues
 * every nonce itself, for one route and five minutes, and binds it to the first wallet that signs it: the proof
 * may be sent again for the next page of the same route until it expires, and by no other wallet. A nonce
 * carries its own expiry and route under the service's MAC, so issuing one (every 402 of the paid route) writes
 * nothing; only a sign-in records which wallet used it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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
  /** Keys this run's nonces: a challenge issued before a restart is refused, and a new one is asked for. */
  private readonly key = randomBytes(32);

  constructor(
    private readonly db: ServiceDb,
    private readonly network: string,
    /** Checks a contract wallet's signature on chain (EIP-1271 / ERC-6492); an EOA is checked without it. */
    private readonly verifyMessage: EVMMessageVerifier,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private mac(random: string, expiry: string, path: string): string {
    return createHmac('sha256', this.key).update(`${random}${expiry}\n${path}`).digest('hex').slice(0, 32);
  }

  /** A nonce of hex only (EIP-4361 wants letters and digits): random, expiry (seconds), and the MAC of both. */
  private issue(path: string, expiresAtMs: number): string {
    const random = randomBytes(12).toString('hex');
    const expiry = Math.floor(expiresAtMs / 1000)
      .toString(16)
      .padStart(8, '0');
    return `${random}${expiry}${this.mac(random, expiry, path)}`;
  }

  /** Whether this service issued the nonce for this route, and it has not expired. */
  private issued(nonce: string, path: string): boolean {
    const parts = /^([0-9a-f]{24})([0-9a-f]{8})([0-9a-f]{32})$/.exec(nonce);
    if (!parts) return false;
    const [, random = '', expiry = '', mac = ''] = parts;
    const expected = Buffer.from(this.mac(random, expiry, path), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return false;
    return Number.parseInt(expiry, 16) * 1000 >= this.now();
  }

  /** A fresh challenge for `resourceUrl`, to go into the 402's extensions under `sign-in-with-x`. */
  challenge(resourceUrl: string, statement: string): Record<string, SIWxExtension> {
    const url = new URL(resourceUrl);
    const nowMs = this.now();
    const expiresAt = nowMs + SIGN_IN_SECONDS * 1000;
    const nonce = this.issue(url.pathname, expiresAt);
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
    const address = payload.address.toLowerCase();
    const usedBy = this.db
      .prepare<[string], { address: string | null }>('SELECT address FROM sign_in_nonces WHERE nonce = ?')
      .get(payload.nonce);
    const validation = await validateSIWxMessage(payload, new URL(origin), {
      maxAge: SIGN_IN_SECONDS * 1000,
      checkNonce: () =>
        this.issued(payload.nonce, path) && (usedBy === undefined || usedBy.address === address),
    });
    if (!validation.isValid) return refused(validation.invalidReason, validation.invalidMessage);
    const verified = await verifySIWxSignature(payload, { evmVerifier: this.verifyMessage });
    if (!verified.isValid) return refused(verified.invalidReason, verified.invalidMessage);
    const nowMs = this.now();
    this.db.prepare('DELETE FROM sign_in_nonces WHERE expires_at < ?').run(nowMs);
    // Bound to this wallet; of two wallets signing one nonce at once, the first recorded keeps it.
    this.db
      .prepare('INSERT OR IGNORE INTO sign_in_nonces (nonce, path, expires_at, address) VALUES (?, ?, ?, ?)')
      .run(payload.nonce, path, nowMs + SIGN_IN_SECONDS * 1000, address);
    const owner = this.db
      .prepare<[string], { address: string | null }>('SELECT address FROM sign_in_nonces WHERE nonce = ?')
      .get(payload.nonce);
    if (owner?.address !== address)
      return refused('invalid_siwx_nonce', 'this challenge was signed in with by another wallet');
    return { kind: 'signed_in', address: verified.payer.toLowerCase() };
  }
}

const refused = (reason: string, message: string): SignInResult => ({ kind: 'refused', reason, message });
