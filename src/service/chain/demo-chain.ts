/** A ready local chain: anvil running, demo token deployed, buyers funded. */
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ACCOUNT_INDEX, anvilDevKey } from './accounts';
import { startAnvil } from './anvil';
import { chainClients, deployDemoToken, mintTestUsdc, type ChainClients, type DeployedToken } from './token';

export const DEMO_CHAIN_ID = 31337;

export interface DemoChain {
  rpcUrl: string;
  anvilPid: number;
  chainId: number;
  network: `eip155:${number}`;
  token: DeployedToken;
  asset: Address;
  payTo: Address;
  facilitatorKey: Hex;
  buyerKeys: Hex[];
  clients: ChainClients;
  stop(): Promise<void>;
}

export interface DemoChainOptions {
  buyerCount?: number;
  buyerBalanceUsdc?: string;
}

export async function startDemoChain(options: DemoChainOptions = {}): Promise<DemoChain> {
  const buyerCount = options.buyerCount ?? 3;
  const anvil = await startAnvil({ chainId: DEMO_CHAIN_ID, accounts: ACCOUNT_INDEX.firstBuyer + buyerCount });
  try {
    const facilitatorKey = anvilDevKey(ACCOUNT_INDEX.facilitator);
    const clients = chainClients(DEMO_CHAIN_ID, anvil.rpcUrl, facilitatorKey);
    const token = await deployDemoToken(clients);
    const buyerKeys = Array.from({ length: buyerCount }, (_, i) => anvilDevKey(ACCOUNT_INDEX.firstBuyer + i));
    await mintTestUsdc(
      clients,
      token,
      buyerKeys.map((key) => privateKeyToAccount(key).address),
      options.buyerBalanceUsdc ?? '1000',
    );
    return {
      rpcUrl: anvil.rpcUrl,
      anvilPid: anvil.pid,
      chainId: DEMO_CHAIN_ID,
      network: `eip155:${DEMO_CHAIN_ID}`,
      token,
      asset: token.address,
      payTo: privateKeyToAccount(anvilDevKey(ACCOUNT_INDEX.payee)).address,
      facilitatorKey,
      buyerKeys,
      clients,
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
