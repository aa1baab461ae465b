/**
 * Which chain RPC the desk asks about a network. The chain is always known: a run's own RPC (the CLI's --rpc,
 * INTEL_DESK_RPC_URL, the demo's anvil) comes first, then the one chosen in Settings, then the public endpoint
 * of Base or Base Sepolia. Without one, a refusal after payment could only be taken at its word.
 */
import { createPublicClient, defineChain, http, type PublicClient } from 'viem';
import type { ChainRpcSource } from '../../shared/rpc';
import { requireEncryptedOrLocal } from '../base/transport';

/** Public endpoints run by Base, rate-limited but enough for a balance, a receipt and a few reads a purchase. */
const DEFAULT_CHAIN_RPC: Readonly<Record<string, string>> = {
  'eip155:8453': 'https://mainnet.base.org',
  'eip155:84532': 'https://sepolia.base.org',
};

export interface ChainRpc {
  url: string;
  source: ChainRpcSource;
}

/** `network` null: no network known yet, so only a configured RPC, never a network's default. */
export function chainRpcFor(
  network: string | null,
  configured: { run: string | null; settings: string | null },
): ChainRpc | null {
  if (network !== null && !/^eip155:\d+$/.test(network)) return null;
  if (configured.run) return { url: configured.run, source: 'run' };
  if (configured.settings) return { url: configured.settings, source: 'settings' };
  const fallback = network === null ? undefined : DEFAULT_CHAIN_RPC[network];
  return fallback ? { url: fallback, source: 'default' } : null;
}

/** How to give another chain RPC, by where the one in use was chosen. */
const REMEDY: Record<ChainRpcSource, string> = {
  run: 'for this run (--rpc or INTEL_DESK_RPC_URL)',
  settings: "in Settings (Chain RPC), or clear it there to use the network's public endpoint",
  default: 'in Settings (Chain RPC)',
};

/**
 * Refuses a payment whose outcome this RPC would judge when it is plain http off this computer (decision 0040):
 * anyone on the path could say the payment moved no money, and the desk would let it be bought again.
 */
export function requireSafeChainRpc(rpc: ChainRpc | null): void {
  if (rpc) requireEncryptedOrLocal('chain RPC', rpc.url, REMEDY[rpc.source]);
}

/** Read-only clients, one per RPC URL and chain, made when first asked for. */
export class ChainClients {
  private readonly clients = new Map<string, PublicClient>();

  constructor(
    private readonly timeoutMs: number,
    /** The desk's network (its proxy and certificate authorities), as viem's fetchFn. */
    private readonly fetchFn: (input: string | URL | Request, init?: RequestInit) => Promise<Response>,
  ) {}

  client(network: string, url: string): PublicClient | null {
    const chainId = Number(network.replace(/^eip155:/, ''));
    if (!Number.isSafeInteger(chainId)) return null;
    const key = `${chainId} ${url}`;
    let client = this.clients.get(key);
    if (!client) {
      const chain = defineChain({
        id: chainId,
        name: network,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      });
      client = createPublicClient({
        chain,
        transport: http(url, { retryCount: 0, timeout: this.timeoutMs, fetchFn: this.fetchFn }),
      });
      this.clients.set(key, client);
    }
    return client;
  }
}
