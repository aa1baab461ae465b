/** Safety rule 1: the networks and assets Intel Desk will ever sign for. */
import { getAddress, isAddress } from 'viem';

export interface AllowedAsset {
  network: `eip155:${number}`;
  chainId: number;
  asset: `0x${string}`;
  label: string;
  domainName: string;
  domainVersion: string;
}

export const BASE_MAINNET_USDC: AllowedAsset = {
  network: 'eip155:8453',
  chainId: 8453,
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  label: 'USDC on Base',
  domainName: 'USD Coin',
  domainVersion: '2',
};

export const BASE_SEPOLIA_USDC: AllowedAsset = {
  network: 'eip155:84532',
  chainId: 84532,
  asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  label: 'USDC on Base Sepolia',
  domainName: 'USDC',
  domainVersion: '2',
};

export const DEMO_CHAIN_NETWORK = 'eip155:31337';

/**
 * The local demo chain allows one token: the test USDC the local service deployed, whose address the desk
 * is told when it starts (INTEL_DESK_DEMO_ASSET), as Base allows only USDC. Any other contract on that chain
 * is refused, whatever a service announces.
 */
export function demoChainUsdc(asset: `0x${string}`): AllowedAsset {
  return {
    network: DEMO_CHAIN_NETWORK,
    chainId: 31337,
    asset: getAddress(asset),
    label: 'the test USDC of the local demo chain',
    domainName: 'USD Coin',
    domainVersion: '2',
  };
}

/** What demo mode allows beyond Base: nothing outside demo mode, and on the demo chain only its token. */
export interface DemoAllowance {
  demo: boolean;
  /** The demo token's address; null when the desk was not told it, and then the demo chain is refused. */
  demoAsset?: string | null | undefined;
}

export function allowedAssets({ demo, demoAsset }: DemoAllowance): AllowedAsset[] {
  const base = [BASE_MAINNET_USDC, BASE_SEPOLIA_USDC];
  if (!demo || !demoAsset || !isAddress(demoAsset, { strict: false })) return base;
  return [...base, demoChainUsdc(demoAsset)];
}

export function findAllowed(
  network: string,
  asset: string,
  allowance: DemoAllowance,
): AllowedAsset | 'network' | 'asset' {
  const forNetwork = allowedAssets(allowance).filter((entry) => entry.network === network);
  if (forNetwork.length === 0) {
    // In demo mode the demo chain is known; only its token was not given, so every contract on it is refused.
    return allowance.demo && network === DEMO_CHAIN_NETWORK ? 'asset' : 'network';
  }
  if (!isAddress(asset, { strict: false })) return 'asset';
  const match = forNetwork.find((entry) => getAddress(entry.asset) === getAddress(asset));
  return match ?? 'asset';
}
