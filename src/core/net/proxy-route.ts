/**
 * Which proxy core uses, and where that choice came from so a refusal can name what to change: the one given in
 * Settings, else none when Settings say so, else the environment's (HTTPS_PROXY and the rest, read as undici
 * and curl read them: lower case first, HTTP_PROXY when no HTTPS_PROXY is set).
 */
import { z } from 'zod';
import { maskedProxyUrl, noProxySchema, proxyUrlSchema } from '../../shared/proxy';
import { DeskError } from '../base/errors';

/** The proxy as stored in desk.db: a manual one keeps its whole address, credentials included. */
export const storedProxySchema = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('environment') }),
    z.object({ mode: z.literal('direct') }),
    z.object({ mode: z.literal('manual'), url: z.string(), noProxy: z.array(z.string()) }),
  ])
  .catch({ mode: 'environment' });
export type StoredProxy = z.infer<typeof storedProxySchema>;

/** The variables a proxy is read from, in the order they count. */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;
const NO_PROXY_VARIABLES = ['no_proxy', 'NO_PROXY'] as const;

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ProxyRoute {
  /** The proxy's whole address (credentials included), or null to connect directly. */
  url: string | null;
  /** Where the proxy was chosen, as a person would change it: "Settings → Network" or a variable's name. */
  source: string;
  noProxy: readonly string[];
}

/** The first variable of `names` that is set (an empty value counts as unset, as in curl). */
function firstSet(env: Environment, names: readonly string[]): { name: string; value: string } | null {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return { name, value };
  }
  return null;
}

/** The environment's proxy and "no proxy" list, or a refusal naming the variable that holds no proxy. */
export function environmentRoute(env: Environment): ProxyRoute {
  const proxy = firstSet(env, PROXY_VARIABLES);
  const exceptions = firstSet(env, NO_PROXY_VARIABLES);
  const url = proxy ? proxyUrlSchema.safeParse(proxy.value) : null;
  if (proxy && url && !url.success) {
    throw new DeskError(
      'proxy_invalid',
      `The environment variable ${proxy.name} does not hold a proxy Intel Desk can use: ${url.error.issues[0]?.message ?? ''} Correct or unset ${proxy.name}, or choose a proxy in Settings → Network; nothing was sent.`,
      'usage',
      { variable: proxy.name, notSent: true },
    );
  }
  const noProxy = exceptions ? noProxySchema.safeParse(exceptions.value) : null;
  if (exceptions && noProxy && !noProxy.success) {
    throw new DeskError(
      'proxy_invalid',
      `The environment variable ${exceptions.name} holds an entry Intel Desk cannot read: ${noProxy.error.issues[0]?.message ?? ''} Correct ${exceptions.name}; nothing was sent.`,
      'usage',
      { variable: exceptions.name, notSent: true },
    );
  }
  return {
    url: url?.success ? url.data : null,
    source: proxy?.name ?? 'the environment',
    noProxy: noProxy?.success ? noProxy.data : [],
  };
}

export const SETTINGS_SOURCE = 'Settings → Network';

export function proxyRoute(setting: StoredProxy, env: Environment): ProxyRoute {
  if (setting.mode === 'direct') return { url: null, source: SETTINGS_SOURCE, noProxy: [] };
  if (setting.mode === 'manual')
    return { url: setting.url, source: SETTINGS_SOURCE, noProxy: setting.noProxy };
  return environmentRoute(env);
}

/** What the environment says, for Settings: masked, with the reason it cannot be used when it cannot. */
export function environmentView(env: Environment): {
  proxy: string | null;
  variable: string | null;
  noProxy: string[];
  problem: string | null;
} {
  try {
    const route = environmentRoute(env);
    return {
      proxy: route.url === null ? null : maskedProxyUrl(route.url),
      variable: route.url === null ? null : route.source,
      noProxy: [...route.noProxy],
      problem: null,
    };
  } catch (error) {
    const problem = error instanceof DeskError ? error.message : String(error);
    return { proxy: null, variable: null, noProxy: [], problem };
  }
}
