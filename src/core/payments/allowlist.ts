/** Safety rule 1: the networks and assets Intel Desk will ever sign for. */
import { getAddress, isAddress } from 'viem';

export interface AllowedAsset {
  network: `eip155:${number}`;
  chainId: number;
  /** null: any token the service announces (the local demo chain only). */
  asset: `0x${string}` | null;
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

export const DEMO_CHAIN_USDC: AllowedAsset = {
  network: 'eip155:31337',
  chainId: 31337,
  asset: null,
  label: 'test USDC on the local demo chain',
  domainName: 'USD Coin',
  domainVersion: '2',
};

export function allowedAssets(demo: boolean): AllowedAsset[] {
  return demo
    ? [BASE_MAINNET_USDC, BASE_SEPOLIA_USDC, DEMO_CHAIN_USDC]
    : [BASE_MAINNET_USDC, BASE_SEPOLIA_USDC];
}

export function findAllowed(
  network: string,
  asset: string,
  demo: boolean,
): AllowedAsset | 'network' | 'asset' {
  const forNetwork = allowedAssets(demo).filter((entry) => entry.network === network);
  if (forNetwork.length === 0) return 'network';
  if (!isAddress(asset, { strict: false })) return 'asset';
  const match = forNetwork.find(
    (entry) => entry.asset === null || getAddress(entry.asset) === getAddress(asset),
  );
  return match ?? 'asset';
}
