/** A ready local chain: anvil running, demo token deployed, buyers funded. */
import { getAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ACCOUNT_INDEX, anvilDevKey } from './accounts';
import { startAnvil } from './anvil';
import { loadDemoToken } from './compile';
import { chainClients, deployDemoToken, mintTestUsdc, type ChainClients, type DeployedToken } from './token';

export const DEMO_CHAIN_ID = 31337;
/** Base makes a block every 2 s; the demo chain does too, so its clock never stands still between purchases. */
export const BASE_BLOCK_TIME_SECONDS = 2;

/**
 * How the chain makes blocks. 'interval' (the default): a block every BASE_BLOCK_TIME_SECONDS with or without
 * transactions, so its time moves on like Base's; a transaction still gets its block at once, so neither the
 * demo nor a test waits up to 2 s per settlement. 'auto': a block per transaction and none in between, so the
 * latest block's time stands still while the chain is idle (for tests of that case only).
 */
export type Mining = 'interval' | 'auto';

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
  mining: Mining;
  stop(): Promise<void>;
}

export interface DemoChainOptions {
  buyerCount?: number;
  buyerBalanceUsdc?: string;
  mining?: Mining;
  /** Where the chain is kept between runs (anvil's --state): loaded when it exists, saved while it runs. */
  statePath?: string;
  /** The demo token of an earlier run on this state: used again when the loaded chain holds it. */
  asset?: Address;
}

export async function startDemoChain(options: DemoChainOptions = {}): Promise<DemoChain> {
  const buyerCount = options.buyerCount ?? 3;
  const mining = options.mining ?? 'interval';
  const anvil = await startAnvil({
    chainId: DEMO_CHAIN_ID,
    accounts: ACCOUNT_INDEX.firstBuyer + buyerCount,
    ...(mining === 'interval' ? { blockTimeSeconds: BASE_BLOCK_TIME_SECONDS } : {}),
    ...(options.statePath ? { statePath: options.statePath } : {}),
  });
  try {
    const facilitatorKey = anvilDevKey(ACCOUNT_INDEX.facilitator);
    const clients = chainClients(DEMO_CHAIN_ID, anvil.rpcUrl, facilitatorKey);
    const buyerKeys = Array.from({ length: buyerCount }, (_, i) => anvilDevKey(ACCOUNT_INDEX.firstBuyer + i));
    let token: DeployedToken;
    if (options.asset !== undefined && (await holdsCode(clients, options.asset))) {
      token = { address: getAddress(options.asset), contract: loadDemoToken() };
    } else {
      token = await deployDemoToken(clients);
      await mintTestUsdc(
        clients,
        token,
        buyerKeys.map((key) => privateKeyToAccount(key).address),
        options.buyerBalanceUsdc ?? '1000',
      );
    }
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
      mining,
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function holdsCode(clients: ChainClients, address: Address): Promise<boolean> {
  const code = await clients.publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}
