/**
 * A wagmi connector for the wallet kept in core's keystore. The private key never leaves core: this
 * connector only reports the address and network `wallet.status` gives, and refuses to sign here, because
 * core signs a purchase itself after the person confirms it.
 */
import { createConnector } from 'wagmi';
import { getAddress, type Address } from 'viem';
import type { RpcClient, WalletView } from '../../shared/rpc';

interface DeskProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

function chainIdOf(view: WalletView, fallback: number): number {
  const id = Number((view.network ?? '').replace(/^eip155:/, ''));
  return Number.isInteger(id) && id > 0 ? id : fallback;
}

export function deskKeystore(client: RpcClient) {
  return createConnector<DeskProvider>((config) => {
    const fallbackChain = config.chains[0].id;
    const status = () => client.call('wallet.status', {});
    const accounts = async (): Promise<readonly Address[]> => {
      const view = await status();
      return view.kind === 'keystore' && view.address ? [getAddress(view.address)] : [];
    };
    const provider: DeskProvider = {
      async request({ method }) {
        if (method === 'eth_accounts' || method === 'eth_requestAccounts') return accounts();
        if (method === 'eth_chainId') return `0x${chainIdOf(await status(), fallbackChain).toString(16)}`;
        throw new Error('Intel Desk signs purchases in its core after you confirm them, not from this page.');
      },
    };
    return {
      id: 'intelDesk',
      name: 'Intel Desk wallet',
      type: 'intelDesk',
      async connect<withCapabilities extends boolean = false>() {
        const view = await status();
        if (view.kind !== 'keystore' || !view.address) {
          throw new Error('Import a wallet in Settings first.');
        }
        const connected = [getAddress(view.address)];
        return {
          accounts: connected as never as withCapabilities extends true
            ? readonly { address: Address; capabilities: Record<string, unknown> }[]
            : readonly Address[],
          chainId: chainIdOf(view, fallbackChain),
        };
      },
      async disconnect() {},
      getAccounts: accounts,
      async getChainId() {
        return chainIdOf(await status(), fallbackChain);
      },
      async getProvider() {
        return provider;
      },
      async isAuthorized() {
        return (await accounts()).length > 0;
      },
      onAccountsChanged(changed) {
        config.emitter.emit('change', { accounts: changed.map((a) => getAddress(a)) });
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
