/** The window's Content-Security-Policy, set on every response Electron's session loads. */
import { session } from 'electron';
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../src/shared/walletconnect-relay';

/**
 * The CSP of src/host/csp.ts, written out literally so static scanners can read it; a host test checks
 * that both stay identical. It covers every response the window loads, app:// included. A run given another
 * WalletConnect relay (a testing aid) has that relay in place of WalletConnect's, and no other change.
 */
function withRelay(policy: string, relayUrl: string): string {
  return policy.replace(
    `connect-src 'self' ${DEFAULT_WALLETCONNECT_RELAY_URL}`,
    `connect-src 'self' ${relayUrl}`,
  );
}

export function enforceCsp(relayUrl: string): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          withRelay(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' wss://relay.walletconnect.org; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
            relayUrl,
          ),
        ],
      },
    });
  });
}
