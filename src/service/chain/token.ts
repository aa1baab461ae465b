/** Deploys the demo EIP-3009 token on a local chain and funds buyers with test USDC. */
import {
  createPublicClient,
  createWalletClient,
  http,
  parseUnits,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
  type Transport,
  type Chain,
  type Account,
  defineChain,
  getAddress,
} from 'viem';
import { createNonceManager, jsonRpc } from 'viem/nonce';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { loadDemoToken, type CompiledContract } from './compile';

export function localChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: 'Intel Desk demo chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export interface ChainClients {
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
}

/**
 * A signing account whose nonces are counted for one chain only. Settlements run concurrently from one account, so
 * a nonce manager hands each transaction its own nonce; viem's shared `nonceManager` counts per address and chain
 * id for the whole process, so a second demo chain (same id 31337, same deployer) in the same process would start
 * from the first chain's count and wait for ever on a nonce its fresh chain never reaches.
 */
export function chainAccount(key: Hex): PrivateKeyAccount {
  return privateKeyToAccount(key, { nonceManager: createNonceManager({ source: jsonRpc() }) });
}

/** Clients for one chain; the wallet's nonces are its own, never shared with another chain's clients. */
export function chainClients(chainId: number, rpcUrl: string, key: Hex): ChainClients {
  const chain = localChain(chainId, rpcUrl);
  const transport = http(rpcUrl, { retryCount: 0 });
  return {
    chain,
    publicClient: createPublicClient({ chain, transport }),
    walletClient: createWalletClient({ chain, transport, account: chainAccount(key) }),
  };
}

export interface DeployedToken {
  address: Address;
  contract: CompiledContract;
}

/** The EIP-712 domain of USDC on Base, which the demo token takes unless told otherwise. */
export const DEMO_TOKEN_DOMAIN = { name: 'USD Coin', version: '2' } as const;

/**
 * Deploys the demo token with the EIP-712 `domain` name and version it signs under (USDC on Base's by default;
 * the interop tests deploy it as Base Sepolia's "USDC").
 */
export async function deployDemoToken(
  clients: ChainClients,
  domain: { name: string; version: string } = DEMO_TOKEN_DOMAIN,
): Promise<DeployedToken> {
  const contract = loadDemoToken();
  const hash = await clients.walletClient.deployContract({
    abi: contract.abi,
    bytecode: contract.bytecode,
    args: [domain.name, domain.version],
  });
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress || receipt.status !== 'success')
    throw new Error('demo token deployment failed');
  return { address: getAddress(receipt.contractAddress), contract };
}

export async function mintTestUsdc(
  clients: ChainClients,
  token: DeployedToken,
  recipients: Address[],
  amountUsdc: string,
): Promise<void> {
  const value = parseUnits(amountUsdc, 6);
  const hashes: Hex[] = [];
  for (const to of recipients) {
    hashes.push(
      await clients.walletClient.writeContract({
        address: token.address,
        abi: token.contract.abi,
        functionName: 'mint',
        args: [to, value],
      }),
    );
  }
  for (const hash of hashes) {
    const receipt = await clients.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`minting test USDC failed in ${hash}`);
  }
}
