/**
 * Base Sepolia on anvil: chain id 84532, USDC's runtime code at Base Sepolia's USDC address with its EIP-712
 * domain ("USDC", "2"), and Multicall3's tryAggregate at its canonical address, so the official x402 packages
 * find what they expect there (the default asset of eip155:84532, the facilitator's diagnosis reads).
 */
import {
  defineChain,
  getAddress,
  parseAbi,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { anvilDevKey } from '../../src/service/chain/accounts';
import { startAnvil } from '../../src/service/chain/anvil';
import { BASE_BLOCK_TIME_SECONDS, type Mining } from '../../src/service/chain/demo-chain';
import { anvilCall } from '../../src/service/chain/anvil-time';
import { chainClients, deployDemoToken, type ChainClients } from '../../src/service/chain/token';
import { deploy, loadTestMulticall } from './test-contracts';

export const BASE_SEPOLIA_CHAIN_ID = 84532;
export const BASE_SEPOLIA_NETWORK = 'eip155:84532' as const;
/** Circle's USDC on Base Sepolia, the x402 packages' default asset for eip155:84532. */
export const BASE_SEPOLIA_USDC: Address = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
/** The EIP-712 domain name and version of USDC on Base Sepolia. */
export const BASE_SEPOLIA_USDC_DOMAIN = { name: 'USDC', version: '2' } as const;
/** Multicall3's address on every chain that has it, Base Sepolia included. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The token's ABI as far as the tests read it (the deployed code is resources/contracts/DemoUSDC.sol). */
export const usdcAbi = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function balanceOf(address owner) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function mint(address to, uint256 value)',
]);

/** One of anvil's well-known development accounts (public test keys, worthless anywhere else). */
export interface AnvilTestAccount {
  index: number;
  key: Hex;
  address: Address;
  account: PrivateKeyAccount;
}

export function anvilTestAccount(index: number): AnvilTestAccount {
  const key = anvilDevKey(index);
  const account = privateKeyToAccount(key);
  return { index, key, address: account.address, account };
}

/** Roles of the ten anvil accounts on the Base Sepolia chain. */
export interface BaseSepoliaAccounts {
  /** #0: deployed the token and mints it (`fund`); a reference service on this chain settles from it. */
  deployer: AnvilTestAccount;
  /** #1: the default payee of an interop peer. */
  payee: AnvilTestAccount;
  /** #2–#6: buyers; none holds USDC until funded. */
  buyers: AnvilTestAccount[];
  /** #7: the owner EOA of contract wallets the tests deploy. */
  walletOwner: AnvilTestAccount;
  /** #8, #9: settlement accounts for interop peers' facilitators (one per peer running at a time). */
  facilitators: [AnvilTestAccount, AnvilTestAccount];
}

export interface BaseSepolia {
  chainId: typeof BASE_SEPOLIA_CHAIN_ID;
  network: typeof BASE_SEPOLIA_NETWORK;
  rpcUrl: string;
  anvilPid: number;
  /** A viem chain for this anvil (no contracts declared, so viem verifies signatures without a deployed helper). */
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  /** Always BASE_SEPOLIA_USDC. */
  usdc: Address;
  usdcAbi: Abi;
  accounts: BaseSepoliaAccounts;
  /** All ten anvil test accounts, by index. */
  testAccounts: AnvilTestAccount[];
  /** Clients signing with `key` on this chain, with a nonce manager of their own. */
  clientsFor(key: Hex): ChainClients;
  /** Mints `baseUnits` (6 decimals) of USDC to `address` and waits for the block. */
  fund(address: Address, baseUnits: bigint): Promise<void>;
  balanceOf(address: Address): Promise<bigint>;
  /** Whether the payer's EIP-3009 nonce is used (or canceled) on chain. */
  authorizationState(payer: Address, nonce: Hex): Promise<boolean>;
  stop(): Promise<void>;
}

export interface BaseSepoliaOptions {
  /**
   * 'interval' (default): a block every 2 s as on Base Sepolia, so the chain's clock moves on while idle (the desk
   * dates authorizations by it); a transaction still gets its block at once. 'auto': a block per transaction only.
   */
  mining?: Mining;
}

/** Copies the runtime code at `from` to `to` (storage is not copied: the copy starts with no balances). */
async function copyCode(rpc: { rpcUrl: string }, client: PublicClient, from: Address, to: Address) {
  const code = await client.getCode({ address: from });
  if (!code || code === '0x') throw new Error(`no code at ${from} to copy`);
  await anvilCall(rpc, 'anvil_setCode', [to, code]);
}

export async function startBaseSepolia(options: BaseSepoliaOptions = {}): Promise<BaseSepolia> {
  const anvil = await startAnvil({
    chainId: BASE_SEPOLIA_CHAIN_ID,
    accounts: 10,
    ...((options.mining ?? 'interval') === 'interval' ? { blockTimeSeconds: BASE_BLOCK_TIME_SECONDS } : {}),
  });
  try {
    const testAccounts = Array.from({ length: 10 }, (_, index) => anvilTestAccount(index));
    const at = (index: number): AnvilTestAccount => {
      const account = testAccounts[index];
      if (!account) throw new Error(`no anvil account ${index}`);
      return account;
    };
    const chain = defineChain({
      id: BASE_SEPOLIA_CHAIN_ID,
      name: 'Base Sepolia (anvil)',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const clientsFor = (key: Hex): ChainClients => chainClients(BASE_SEPOLIA_CHAIN_ID, anvil.rpcUrl, key);
    const deployer = clientsFor(at(0).key);
    const { publicClient } = deployer;

    // Deployed anywhere, then its code placed where Base Sepolia's USDC lives: the domain is in the code and
    // DOMAIN_SEPARATOR reads address(this), so signatures made for 0x036C…CF7e verify there.
    const token = await deployDemoToken(deployer, BASE_SEPOLIA_USDC_DOMAIN);
    await copyCode(anvil, publicClient, token.address, BASE_SEPOLIA_USDC);
    const multicall = await deploy(deployer, loadTestMulticall());
    await copyCode(anvil, publicClient, multicall, MULTICALL3_ADDRESS);

    const balanceOf = (address: Address): Promise<bigint> =>
      publicClient.readContract({
        address: BASE_SEPOLIA_USDC,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [address],
      });

    return {
      chainId: BASE_SEPOLIA_CHAIN_ID,
      network: BASE_SEPOLIA_NETWORK,
      rpcUrl: anvil.rpcUrl,
      anvilPid: anvil.pid,
      chain,
      publicClient,
      usdc: BASE_SEPOLIA_USDC,
      usdcAbi,
      accounts: {
        deployer: at(0),
        payee: at(1),
        buyers: [2, 3, 4, 5, 6].map(at),
        walletOwner: at(7),
        facilitators: [at(8), at(9)],
      },
      testAccounts,
      clientsFor,
      fund: async (address, baseUnits) => {
        const hash = await deployer.walletClient.writeContract({
          address: BASE_SEPOLIA_USDC,
          abi: usdcAbi,
          functionName: 'mint',
          args: [getAddress(address), baseUnits],
        });
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        if (receipt.status !== 'success') throw new Error(`funding ${address} failed in ${hash}`);
      },
      balanceOf,
      authorizationState: (payer, nonce) =>
        publicClient.readContract({
          address: BASE_SEPOLIA_USDC,
          abi: usdcAbi,
          functionName: 'authorizationState',
          args: [getAddress(payer), nonce],
        }),
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
