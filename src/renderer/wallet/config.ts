/**
 * wagmi: the Intel Desk keystore, WalletConnect (offered once a project id is set), and injected browser
 * wallets (browser mode only; Electron pages have none). Chains are the ones core allowlists. Reads go through core, so transports are never used for
 * balances; they exist because wagmi requires one per chain.
 */
import { createConfig, http, injected } from 'wagmi';
import { base, baseSepolia } from 'wagmi/chains';
import { defineChain } from 'viem';
import type { RpcClient } from '../../shared/rpc';
import { deskKeystore } from './desk-connector';
import { deskWalletConnect } from './walletconnect';

export const demoChain = defineChain({
  id: 31337,
  name: 'Local demo chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

export function createWagmiConfig(client: RpcClient, mode: 'electron' | 'browser') {
  return createConfig({
    chains: [base, baseSepolia, demoChain],
    connectors:
      mode === 'browser'
        ? [deskKeystore(client), deskWalletConnect(client), injected()]
        : [deskKeystore(client), deskWalletConnect(client)],
    transports: { [base.id]: http(), [baseSepolia.id]: http(), [demoChain.id]: http() },
    multiInjectedProviderDiscovery: mode === 'browser',
  });
}
