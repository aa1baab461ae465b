/**
 * Which WalletConnect relay the desk's connector uses, and so the one address besides its own that the page may
 * connect to (src/host/csp.ts). Always WalletConnect's own, except in a test: INTEL_DESK_WALLETCONNECT_RELAY_URL
 * (never in Settings, never offered to people) names a relay on this computer only, as the tests' loopback
 * relay is (decision 0028). The WalletConnect Community License has every use connect to WalletConnect's network
 * and forbids suggesting otherwise to users, so a relay elsewhere is refused (decision 0045).
 */
import { z } from 'zod';

export const DEFAULT_WALLETCONNECT_RELAY_URL = 'wss://relay.walletconnect.org';
export const WALLETCONNECT_RELAY_ENV = 'INTEL_DESK_WALLETCONNECT_RELAY_URL';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const RELAY_URL_RULE =
  "A WalletConnect relay URL is for tests only: ws:// or wss:// on 127.0.0.1, localhost or [::1], with no path, query or user name. Without it the desk uses WalletConnect's own relay, as its licence requires.";

/** A relay URL, reduced to its origin (what the CSP names and the connector dials). */
export const walletConnectRelayUrlSchema = z
  .string()
  .trim()
  .transform((value, context) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      context.addIssue({ code: 'custom', message: RELAY_URL_RULE });
      return z.NEVER;
    }
    const plainOrigin = (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
    const onThisComputer =
      (url.protocol === 'wss:' || url.protocol === 'ws:') && LOOPBACK_HOSTS.has(url.hostname);
    if (!plainOrigin || !onThisComputer || url.username || url.password) {
      context.addIssue({ code: 'custom', message: RELAY_URL_RULE });
      return z.NEVER;
    }
    return url.origin;
  });

/** The relay a run uses: the variable's when set (refused when malformed), else WalletConnect's own. */
export function relayUrlFromEnv(
  env: Record<string, string | undefined>,
): { ok: true; url: string } | { ok: false; message: string } {
  const given = env[WALLETCONNECT_RELAY_ENV];
  if (given === undefined || given === '') return { ok: true, url: DEFAULT_WALLETCONNECT_RELAY_URL };
  const parsed = walletConnectRelayUrlSchema.safeParse(given);
  return parsed.success
    ? { ok: true, url: parsed.data }
    : {
        ok: false,
        message: `${WALLETCONNECT_RELAY_ENV}: ${parsed.error.issues[0]?.message ?? RELAY_URL_RULE}`,
      };
}
