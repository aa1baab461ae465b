/**
 * The failures a network at work adds, each said so a person knows what to change: a proxy that cannot be
 * reached, asks for credentials (407) or refuses the tunnel, and a certificate nobody told the desk to trust.
 * All of them happen before the request's first byte reaches the service, so nothing was sent.
 */
import { maskedProxyUrl } from '../../shared/proxy';
import { DeskError } from '../base/errors';
import { SETTINGS_SOURCE, type ProxyRoute } from './proxy-route';

/** Codes and messages anywhere in an error's cause chain (fetch wraps undici's in a TypeError and an AbortError). */
function causes(error: unknown, depth = 0): { code: string | null; message: string }[] {
  if (!error || typeof error !== 'object' || depth > 6) return [];
  const code = 'code' in error && typeof error.code === 'string' ? error.code : null;
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  const nested = 'errors' in error && Array.isArray(error.errors) ? error.errors : [];
  return [
    { code, message },
    ...causes('cause' in error ? error.cause : undefined, depth + 1),
    ...nested.flatMap((inner: unknown) => causes(inner, depth + 1)),
  ];
}

/** OpenSSL's and Node's codes for a certificate chain the desk does not trust, or that does not fit the host. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Failures to open a connection at all: through a proxy, the one connection the desk opens is the proxy's. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** How to change the proxy, by where it was chosen. */
function proxyRemedy(route: ProxyRoute): string {
  return route.source === SETTINGS_SOURCE
    ? `in ${SETTINGS_SOURCE}`
    : `in ${route.source}, or choose another in ${SETTINGS_SOURCE}`;
}

function certificateSentence(host: string, code: string): string {
  const closed = 'so the connection was closed and nothing was sent';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `The certificate ${host} presented is for another name (${code}), ${closed}. Check the address in Settings (or --service, --rpc for one run); behind TLS inspection, ask your network's administrators to inspect ${host} with a certificate for it.`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `The certificate ${host} presented ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'} (${code}), ${closed}. Check this computer's date and time; otherwise the service (or the inspecting proxy) must renew it.`;
  return `The certificate ${host} presented is not signed by an authority Intel Desk trusts (${code}), ${closed}. If your organisation inspects TLS, give its CA certificate in Settings → Network (CA certificates file), or for the CLI set NODE_EXTRA_CA_CERTS to that PEM file.`;
}

/**
 * The refusal for a failure of the network's own (proxy, certificate), or null when it is another failure:
 * only failures before the first byte of the request left, so every refusal here says nothing was sent.
 */
export function networkRefusal(error: unknown, url: URL, route: ProxyRoute | null): DeskError | null {
  const chain = causes(error);
  const host = url.host;
  const details = { notSent: true };
  const certificate = chain.find((cause) => cause.code !== null && CERTIFICATE_CODES.has(cause.code));
  if (certificate?.code)
    return new DeskError(
      'certificate_untrusted',
      certificateSentence(host, certificate.code),
      'network',
      details,
      {
        cause: error,
      },
    );
  if (!route?.url) return null;
  const proxy = maskedProxyUrl(route.url);
  const tunnel = chain
    .map((cause) =>
      /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(cause.message),
    )
    .find((match) => match !== null);
  const status = tunnel ? Number(tunnel[1] ?? tunnel[2]) : null;
  if (status === 407)
    return new DeskError(
      'proxy_auth_required',
      `The proxy ${proxy} (from ${route.source}) asks for a user name and password (HTTP 407). Give them in the proxy address, as http://user:password@${new URL(route.url).host}, ${proxyRemedy(route)}; nothing was sent to ${host}.`,
      'network',
      details,
      { cause: error },
    );
  if (status !== null)
    return new DeskError(
      'proxy_refused',
      `The proxy ${proxy} (from ${route.source}) refused to open a connection to ${host} (HTTP ${status}). Ask your network's administrators to allow ${host}, or change the proxy ${proxyRemedy(route)}; nothing was sent.`,
      'network',
      { ...details, status },
      { cause: error },
    );
  const connect = chain.find((cause) => cause.code !== null && CONNECT_CODES.has(cause.code));
  if (connect?.code)
    return new DeskError(
      'proxy_unreachable',
      `Cannot reach the proxy ${proxy} (from ${route.source}) to connect to ${host} (${connect.code}). Check the proxy ${proxyRemedy(route)}; nothing was sent.`,
      'network',
      details,
      { cause: error },
    );
  return null;
}
