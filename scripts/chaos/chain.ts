/**
 * The chain as the chaos run sees it: anvil's own time controls (an idle chain, time moved past every
 * authorization's window) and the reads the invariants trust, straight from the demo token.
 */
import { parseAbiItem, type Address, type Hex } from 'viem';
import { anvilCall, shiftChainClock } from '../../src/service/chain/anvil-time';
import type { DemoChain } from '../../src/service/chain/demo-chain';

export { idleFor } from '../../src/service/chain/anvil-time';

/** A block on the wall clock: anvil's interval miner would otherwise go on counting from the idle block. */
export const catchUp = (chain: DemoChain): Promise<void> => shiftChainClock(chain, 0);

/** Moves the chain's clock past `timestamp` (seconds) and mines a block there. */
export async function advancePast(chain: DemoChain, timestamp: number): Promise<void> {
  const latest = Number((await chain.clients.publicClient.getBlock({ blockTag: 'latest' })).timestamp);
  if (latest > timestamp) return;
  await anvilCall(chain, 'evm_increaseTime', [timestamp - latest + 1]);
  await anvilCall(chain, 'evm_mine');
}

export async function balanceOf(chain: DemoChain, owner: Address): Promise<bigint> {
  return (await chain.clients.publicClient.readContract({
    address: chain.asset,
    abi: chain.token.contract.abi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

const AUTHORIZATION_USED = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface Settlement {
  authorizer: string;
  nonce: string;
  txHash: Hex;
  /** What moved from the authorizer in the same transaction (Transfer events). */
  moved: bigint;
  /** Transfer events from the authorizer in that transaction. */
  transfers: number;
}

/** Every settled authorization on the demo token, with what moved in its transaction. */
export async function settlementsOnChain(chain: DemoChain): Promise<Settlement[]> {
  const client = chain.clients.publicClient;
  const [used, transfers] = await Promise.all([
    client.getLogs({ address: chain.asset, event: AUTHORIZATION_USED, fromBlock: 0n, toBlock: 'latest' }),
    client.getLogs({ address: chain.asset, event: TRANSFER, fromBlock: 0n, toBlock: 'latest' }),
  ]);
  return used.map((log) => {
    const authorizer = (log.args.authorizer ?? '').toLowerCase();
    const inTx = transfers.filter(
      (t) => t.transactionHash === log.transactionHash && (t.args.from ?? '').toLowerCase() === authorizer,
    );
    return {
      authorizer,
      nonce: (log.args.nonce ?? '').toLowerCase(),
      txHash: log.transactionHash,
      moved: inTx.reduce((sum, t) => sum + (t.args.value ?? 0n), 0n),
      transfers: inTx.length,
    };
  });
}
