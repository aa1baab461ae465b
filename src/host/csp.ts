/**
 * The one Content-Security-Policy of the renderer, sent by the web host and by Electron's app protocol, and
 * written into the page's own meta tag as served. Styles set through the DOM style property (React's style
 * prop) are not governed by style-src, so no 'unsafe-inline' is needed anywhere. Beyond 'self', connect-src
 * names exactly one address: the WalletConnect relay this run uses (src/shared/walletconnect-relay.ts), which
 * the renderer contacts only once a person sets a project id and pairs a wallet.
 */
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../shared/walletconnect-relay';

/** The policy for a run whose connector dials `relayUrl` (an origin, already validated). */
export function contentSecurityPolicy(relayUrl: string = DEFAULT_WALLETCONNECT_RELAY_URL): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${relayUrl}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The policy with WalletConnect's own relay, as the built page's meta tag and Electron's literal carry it. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** Headers every response of the renderer carries, in either host. */
export function securityHeaders(relayUrl: string = DEFAULT_WALLETCONNECT_RELAY_URL): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(relayUrl),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}

export const SECURITY_HEADERS = securityHeaders();

const META_POLICY = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/;

/**
 * The page as served: its meta tag carries the run's policy (frame-ancestors left out, as a meta tag ignores
 * it). Both policies apply to a page, so a meta tag naming another relay would block the one the run uses.
 */
export function withPagePolicy(html: Buffer, relayUrl: string): Buffer {
  const policy = contentSecurityPolicy(relayUrl).replace("; frame-ancestors 'none'", '');
  const text = html.toString('utf8');
  if (!META_POLICY.test(text)) return html;
  return Buffer.from(text.replace(META_POLICY, `$1${policy}$2`), 'utf8');
}
