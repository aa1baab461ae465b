/**
 * Core's one way onto the network (decision 0046): every request to the service and to the chain RPC goes
 * through `fetch` here, over undici with the proxy and the certificate authorities Settings and the environment
 * give. What it connects with is rebuilt when those change; a request under way finishes on the old one.
 */
import { statSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import {
  Agent,
  ProxyAgent,
  fetch as undiciFetch,
  type Dispatcher,
  type RequestInit as UndiciInit,
} from 'undici';
import { bypassesProxy } from './bypass';
import { trustedCertificates } from './certificates';
import { networkRefusal } from './network-errors';
import { proxyRoute, type Environment, type ProxyRoute, type StoredProxy } from './proxy-route';

/** A fetch that takes a URL: what the service client and the chain's transport need of it. */
export type DeskFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** The settings the network is made of. */
export interface NetworkChoice {
  proxy: StoredProxy;
  caFile: string | null;
  systemCertificates: boolean;
}

interface Connectors {
  key: string;
  route: ProxyRoute;
  direct: Dispatcher;
  /** Through the proxy, when there is one. */
  proxied: Dispatcher | null;
}

/** What decides the connectors: the settings, and the CA file's own change time so an edited file is read again. */
function keyOf(choice: NetworkChoice): string {
  let changed = 0;
  try {
    changed = choice.caFile ? statSync(choice.caFile).mtimeMs : 0;
  } catch {
    // An unreadable file is refused with its reason when the connectors are made.
  }
  return JSON.stringify([choice, changed]);
}

export class DeskNetwork {
  private connectors: Connectors | null = null;

  constructor(
    private readonly choice: () => NetworkChoice,
    private readonly env: Environment,
  ) {}

  readonly fetch: DeskFetch = async (url, init) => {
    const target = new URL(url);
    const connectors = this.current();
    const proxied = connectors.proxied !== null && !bypassesProxy(target, connectors.route.noProxy);
    const dispatcher = proxied && connectors.proxied ? connectors.proxied : connectors.direct;
    try {
      const response = await undiciFetch(url, { ...(init as UndiciInit), dispatcher });
      // undici's Response is the WHATWG one global fetch returns, from the package rather than Node's copy.
      return response as unknown as Response;
    } catch (error) {
      throw networkRefusal(error, target, proxied ? connectors.route : null) ?? error;
    }
  };

  /** viem's fetchFn: viem passes the URL and an init (utils/rpc/http.ts), never a Request of its own. */
  readonly fetchForViem = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
    this.fetch(input instanceof Request ? input.url : String(input), init);

  private current(): Connectors {
    const choice = this.choice();
    const key = keyOf(choice);
    if (this.connectors?.key === key) return this.connectors;
    const route = proxyRoute(choice.proxy, this.env);
    const ca = trustedCertificates(choice, this.env);
    // One context for every connection: given as a list, Node parses every CA again for each new connection
    // (measured here: a new TLS connection took 35 ms at the median with the list, 9 ms with one context).
    const tlsOptions = ca ? { secureContext: createSecureContext({ ca }) } : {};
    const next: Connectors = {
      key,
      route,
      direct: new Agent({ connect: tlsOptions }),
      proxied: route.url
        ? new ProxyAgent({ uri: route.url, requestTls: tlsOptions, proxyTls: tlsOptions })
        : null,
    };
    const previous = this.connectors;
    this.connectors = next;
    if (previous) void closeConnectors(previous);
    return next;
  }

  async close(): Promise<void> {
    const connectors = this.connectors;
    this.connectors = null;
    if (connectors) await closeConnectors(connectors);
  }
}

/** Lets requests under way finish, then closes their connections. */
async function closeConnectors(connectors: Connectors): Promise<void> {
  await Promise.allSettled([connectors.direct.close(), connectors.proxied?.close()]);
}
