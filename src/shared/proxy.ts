/**
 * What a proxy address and a "no proxy" list may be (decision 0046), for Settings, the environment and the
 * window's fields alike, and how an address is shown: its user name and password never leave core.
 */
import { z } from 'zod';

/** An http(s) proxy, as curl takes it: `host:port` alone means http://host:port. */
export const proxyUrlSchema = z
  .string()
  .trim()
  .min(1, 'Give the proxy as http://host:port.')
  .max(2048)
  .transform((value, ctx) => {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
    const url = URL.canParse(withScheme) ? new URL(withScheme) : null;
    if (!url || !url.hostname) {
      ctx.addIssue({ code: 'custom', message: 'Give the proxy as http://host:port.' });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({
        code: 'custom',
        message: `Intel Desk uses http:// and https:// proxies only, not ${url.protocol.replace(/:$/, '')}://.`,
      });
      return z.NEVER;
    }
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: 'A proxy address has no path: give it as http://host:port.' });
      return z.NEVER;
    }
    const credentials = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
    return `${url.protocol}//${credentials}${url.host}`;
  });

/**
 * One NO_PROXY entry: `*`, a host or domain (`example.com`, `.example.com`, `*.example.com`), an IP address,
 * any of them with `:port`, or an IPv4 range (`10.0.0.0/8`).
 */
const NO_PROXY_ENTRY =
  /^(\*|(\*?\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*(:\d{1,5})?|\[[0-9a-f:.]+\](:\d{1,5})?|[0-9a-f:]+|\d{1,3}(\.\d{1,3}){3}\/\d{1,2})$/i;

const noProxyEntrySchema = z
  .string()
  .max(300)
  .regex(NO_PROXY_ENTRY, {
    error: (issue) =>
      `"${String(issue.input).slice(0, 100)}" is not a host, a domain (.example.com), an IP address or an IPv4 range (10.0.0.0/8).`,
  })
  .transform((entry) => entry.toLowerCase());

/** "No proxy" entries as the contract carries them. */
export const noProxyEntriesSchema = z.array(noProxyEntrySchema).max(200);

/** A "no proxy" list as typed or set in NO_PROXY, comma- or space-separated: its entries. */
export const noProxySchema = z
  .string()
  .max(4096)
  .transform((value) => value.split(/[\s,]+/).filter((entry) => entry !== ''))
  .pipe(noProxyEntriesSchema);

/** How core finds its proxy: the environment's variables, none at all, or the one given in Settings. */
export const proxySettingSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('environment') }).strict(),
  z.object({ mode: z.literal('direct') }).strict(),
  z
    .object({
      mode: z.literal('manual'),
      /** Absent in a change: keep the address saved (whose password the window never had). */
      url: proxyUrlSchema.optional(),
      noProxy: noProxyEntriesSchema.default([]),
    })
    .strict(),
]);
export type ProxySettingInput = z.input<typeof proxySettingSchema>;

/** The address with its user name and password replaced, fit for the window and for sentences. */
export function maskedProxyUrl(url: string): string {
  if (!URL.canParse(url)) return '(not an address)';
  const parsed = new URL(url);
  const hidden = parsed.username || parsed.password ? '•••@' : '';
  return `${parsed.protocol}//${hidden}${parsed.host}`;
}

/** A CA certificates file as Settings takes it: an absolute path to a PEM file. */
export const caFileSchema = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine((value) => /^(\/|[a-z]:[\\/]|\\\\)/i.test(value), {
    message: 'Give the full path of the certificates file (a PEM file).',
  });

/** The network settings as the window sees them: addresses masked, the environment's choice beside them. */
export interface NetworkView {
  proxy: { mode: 'environment' } | { mode: 'direct' } | { mode: 'manual'; url: string; noProxy: string[] };
  /** What the environment of the desk's process says (HTTPS_PROXY and the rest), masked. */
  environment: {
    proxy: string | null;
    /** The variable the proxy came from (HTTPS_PROXY, https_proxy, HTTP_PROXY, http_proxy). */
    variable: string | null;
    noProxy: string[];
    /** Why the environment's proxy cannot be used, when it cannot. */
    problem: string | null;
  };
  caFile: string | null;
  systemCertificates: boolean;
  /** Whether this runtime can read the system's certificate store (Node 22.15 and later). */
  systemCertificatesAvailable: boolean;
}
