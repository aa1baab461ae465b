/**
 * WalletConnect as a wagmi connector over @walletconnect/universal-provider. The provider is loaded (and the
 * relay contacted) only when the person connects, with the project id and relay read from core's settings at that
 * moment; the pairing URI goes out as a 'display_uri' message for the app's own QR code, so no third-party
 * modal is loaded. Only Base and Base Sepolia are asked for: the demo chain is local to this machine.
 */
import { createConnector } from 'wagmi';
import { getAddress, type Address } from 'viem';
import type WalletConnectProvider from '@walletconnect/universal-provider';
import type { RpcClient } from '../../shared/rpc';

type UniversalProvider = WalletConnectProvider;

const CHAINS = [8453, 84532] as const;
// personal_sign: restoring purchases signs in with the wallet (sign-in-with-x, an EIP-4361 message).
const SIGNING_METHODS = ['eth_signTypedData_v4', 'personal_sign', 'eth_accounts', 'eth_chainId'];
/** How long the relay may take to answer; the wallet's approval afterwards has no limit. */
const RELAY_TIMEOUT_MS = 15_000;
const RELAY_UNREACHABLE = `The WalletConnect relay did not answer within ${RELAY_TIMEOUT_MS / 1000} s. Check the network connection and try again.`;

function withTimeout<T>(work: Promise<T>, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), RELAY_TIMEOUT_MS);
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}

interface Eip1193 {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): void;
  removeListener(event: string, listener: (...args: unknown[]) => void): void;
}

function sessionAccounts(provider: UniversalProvider): Address[] {
  return (provider.session?.namespaces['eip155']?.accounts ?? []).map((caip10: string) =>
    getAddress(caip10.split(':')[2] ?? ''),
  );
}

function sessionChainId(provider: UniversalProvider): number {
  const first = provider.session?.namespaces['eip155']?.accounts[0];
  const chainId = Number(first?.split(':')[1]);
  return Number.isInteger(chainId) && chainId > 0 ? chainId : CHAINS[0];
}

const CHAIN_NAMES: Record<number, string> = { 8453: 'Base', 84532: 'Base Sepolia' };
const chainName = (id: number) => CHAIN_NAMES[id] ?? `chain ${id}`;

/** The chains the wallet approved in this session. */
function sessionChains(provider: UniversalProvider): number[] {
  const accounts = provider.session?.namespaces['eip155']?.accounts ?? [];
  return [...new Set(accounts.map((caip10: string) => Number(caip10.split(':')[1])))];
}

/**
 * The chain a request is for: typed data names its own (a payment on Base Sepolia is asked on Base Sepolia,
 * whatever chain the session lists first); a chain the wallet did not approve is refused here, before the
 * wallet is asked, since a wallet on another network cannot show the person what they sign.
 */
function requestChainId(provider: UniversalProvider, method: string, params: unknown): number {
  const fallback = sessionChainId(provider);
  if (method !== 'eth_signTypedData_v4' || !Array.isArray(params) || typeof params[1] !== 'string')
    return fallback;
  let chainId: unknown;
  try {
    chainId = (JSON.parse(params[1]) as { domain?: { chainId?: unknown } }).domain?.chainId;
  } catch {
    return fallback;
  }
  if (typeof chainId !== 'number') return fallback;
  const approved = sessionChains(provider);
  if (!approved.includes(chainId))
    // EIP-1193's 4901: not connected to the requested chain; the signing loop shows this message as it is.
    throw Object.assign(
      new Error(
        `The wallet is connected on ${approved.map(chainName).join(', ') || 'no network'}, but this payment is on ${chainName(chainId)}. Switch the wallet to ${chainName(chainId)}, then disconnect and connect it again. Nothing was paid.`,
      ),
      { code: 4901 },
    );
  return chainId;
}

export function deskWalletConnect(client: RpcClient) {
  let provider: UniversalProvider | null = null;
  let loading: Promise<UniversalProvider> | null = null;

  async function load(): Promise<UniversalProvider> {
    const { walletConnectProjectId, walletConnectRelayUrl } = await client.call('settings.get', {});
    if (!walletConnectProjectId)
      throw new Error('Set a WalletConnect project id in Settings to connect a wallet this way.');
    loading ??= import('@walletconnect/universal-provider').then(async (module) => {
      const created = await withTimeout(
        module.UniversalProvider.init({
          projectId: walletConnectProjectId,
          // WalletConnect's own relay unless the run named another; the page's CSP allows only this one.
          relayUrl: walletConnectRelayUrl,
          metadata: {
            name: 'Intel Desk',
            description: 'Buy and read pay-per-report intelligence',
            url: 'https://intel-desk.invalid',
            icons: [],
          },
          telemetryEnabled: false,
        }),
        RELAY_UNREACHABLE,
      );
      // The Verify API vouches for a web site's origin; the desk's (app://desk, or loopback) is nothing it can
      // vouch for, and the CSP refuses its iframe, for which the client would wait 5 s before the proposal and
      // before every signing request. No attestation is what the client sends when Verify fails anyway.
      created.client.core.verify.register = async () => '';
      provider = created;
      return created;
    });
    try {
      return await loading;
    } catch (error) {
      loading = null;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        reason === RELAY_UNREACHABLE ? reason : `Could not reach the WalletConnect relay: ${reason}`,
      );
    }
  }

  return createConnector<Eip1193>((config) => {
    // wagmi follows a connector's own events only: the provider's are passed on here, once per provider.
    const watched = new WeakSet<UniversalProvider>();
    const watch = (wc: UniversalProvider) => {
      if (watched.has(wc)) return;
      watched.add(wc);
      wc.on('accountsChanged', (accounts: string[]) => {
        if (accounts.length === 0) config.emitter.emit('disconnect');
        // Addresses, or CAIP-10 accounts (eip155:<chain>:<address>) from some wallets: the address is last.
        else
          config.emitter.emit('change', {
            accounts: accounts.map((a) => getAddress(a.split(':').pop() ?? '')),
          });
      });
      // A wallet may change its accounts by a session update alone, with no accountsChanged event.
      wc.on('session_update', () => {
        const accounts = sessionAccounts(wc);
        if (accounts.length > 0) config.emitter.emit('change', { accounts });
      });
      wc.on('chainChanged', (chain: string | number) => {
        config.emitter.emit('change', { chainId: Number(chain) });
      });
      // The wallet ended the session (from the phone): the desk is no longer connected to it.
      wc.on('disconnect', () => config.emitter.emit('disconnect'));
    };
    const lazyProvider: Eip1193 = {
      request: async ({ method, params }) => {
        const wc = await load();
        return wc.request(
          { method, params: params as unknown[] },
          `eip155:${requestChainId(wc, method, params)}`,
        );
      },
      // The connector passes the provider's events on itself (watch above), once it is loaded.
      on: (event, listener) => provider?.on(event, listener),
      removeListener: (event, listener) => provider?.removeListener(event, listener),
    };
    return {
      id: 'walletConnect',
      name: 'WalletConnect',
      type: 'walletConnect',
      async connect(parameters) {
        const wc = await load();
        watch(wc);
        let shown: () => void = () => undefined;
        const uriShown = new Promise<void>((resolve) => (shown = resolve));
        const onUri = (uri: string) => {
          config.emitter.emit('message', { type: 'display_uri', data: uri });
          shown();
        };
        wc.on('display_uri', onUri);
        try {
          if (!wc.session) {
            const connecting = wc.connect({
              optionalNamespaces: {
                eip155: {
                  chains: CHAINS.map((id) => `eip155:${id}`),
                  methods: SIGNING_METHODS,
                  events: ['accountsChanged', 'chainChanged'],
                },
              },
            });
            try {
              await withTimeout(Promise.race([uriShown, connecting]), RELAY_UNREACHABLE);
            } catch (error) {
              wc.abortPairingAttempt();
              throw error;
            }
            await connecting;
          }
        } finally {
          wc.removeListener('display_uri', onUri);
        }
        const accounts = sessionAccounts(wc);
        if (accounts.length === 0) throw new Error('The wallet approved the session but shared no account.');
        const chainId = sessionChainId(wc);
        // wagmi types the answer by the withCapabilities flag; this connector has no capabilities to report.
        return (
          parameters?.withCapabilities
            ? { accounts: accounts.map((address) => ({ address, capabilities: {} })), chainId }
            : { accounts, chainId }
        ) as never;
      },
      async disconnect() {
        await provider?.disconnect();
      },
      async getAccounts() {
        return provider ? sessionAccounts(provider) : [];
      },
      async getChainId() {
        return provider ? sessionChainId(provider) : CHAINS[0];
      },
      // wagmi asks every connector for its provider when the app starts (to reconnect): this one is a stand-in
      // that loads WalletConnect, and so dials the relay, only when a request is actually made.
      async getProvider() {
        return lazyProvider;
      },
      // Never restore a session at start-up: that would contact the relay before the person asks for it.
      async isAuthorized() {
        return provider !== null && provider.session !== undefined;
      },
      onAccountsChanged(accounts) {
        if (accounts.length === 0) config.emitter.emit('disconnect');
        else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) });
      },
      onChainChanged(chain) {
        config.emitter.emit('change', { chainId: Number(chain) });
      },
      onDisconnect() {
        config.emitter.emit('disconnect');
      },
    };
  });
}
