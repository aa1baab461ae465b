/**
 * The one Content-Security-Policy of the renderer, sent by the web host and by Electron's app protocol.
 * Styles set through the DOM style property (React's style prop) are not governed by style-src, so no
 * 'unsafe-inline' is needed anywhere. Beyond 'self', connect-src names only the WalletConnect relay and its
 * RPC and verify hosts, which the renderer contacts only once a person sets a project id and pairs a wallet.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' wss://relay.walletconnect.org https://rpc.walletconnect.org https://verify.walletconnect.org https://verify.walletconnect.com",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Headers every response of the renderer carries, in either host. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};
