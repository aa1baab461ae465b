/**
 * Moves a test chain's time with anvil's own controls (src/service/chain/anvil-time.ts, shared with the chaos
 * run), plus the reads the tests check it by.
 */
import type { Stack } from '../../src/service/stack';

export { anvilCall, idleFor, shiftChainClock } from '../../src/service/chain/anvil-time';

/** The latest block's timestamp, in seconds. */
export async function latestBlockTime(stack: Stack): Promise<number> {
  const block = await stack.chain.clients.publicClient.getBlock({ blockTag: 'latest' });
  return Number(block.timestamp);
}
