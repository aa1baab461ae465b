/**
 * The reference service stack for benchmarks that start several stacks in one process. The service signs with
 * viem's shared `nonceManager`, which remembers the facilitator's last nonce per chain id across anvil restarts:
 * a second stack (fresh anvil, same chain id 31337) would send its deployment with a nonce from the first chain
 * and wait forever for it. Forgetting that nonce first makes every stack start from the new chain's count.
 */
import { nonceManager } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ACCOUNT_INDEX, anvilDevKey } from '../src/service/chain/accounts';
import { DEMO_CHAIN_ID } from '../src/service/chain/demo-chain';
import { startStack, type Stack, type StackOptions } from '../src/service/stack';

export type { Stack };

export async function startBenchStack(options: StackOptions = {}): Promise<Stack> {
  const facilitator = privateKeyToAccount(anvilDevKey(ACCOUNT_INDEX.facilitator)).address;
  nonceManager.reset({ address: facilitator, chainId: DEMO_CHAIN_ID });
  return startStack(options);
}
