/**
 * Which WalletConnect relay the desk's connector uses, and so the one address besides its own that the page may
 * connect to (src/host/csp.ts). WalletConnect's own relay unless the run names another with
 * INTEL_DESK_WALLETCONNECT_RELAY_URL (a testing aid, never shown in Settings): a wss:// relay anywhere, or a
 * ws:// one on this machine only, as the tests' relay is (docs/decisions/0028-walletconnect-relay-url.md).
 */
import { z } from 'zod';

export const DEFAULT_WALLETCONNECT_RELAY_URL = 'wss://relay.walletconnect.org';
export const WALLETCONNECT_RELAY_ENV = 'INTEL_DESK_WALLETCONNECT_RELAY_URL';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const RELAY_URL_RULE =
  'A WalletConnect relay URL is wss://host[:port], or ws://127.0.0.1:port on this machine, with no path, query or user name.';

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
    const allowedScheme =
      url.protocol === 'wss:' || (url.protocol === 'ws:' && LOOPBACK_HOSTS.has(url.hostname));
    if (!plainOrigin || !allowedScheme || url.username || url.password) {
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
