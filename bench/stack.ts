/**
 * The reference service stack for benchmarks, which start several stacks in one process. Each stack's chain
 * counts the facilitator's nonces on its own (`chainAccount` in src/service/chain/token.ts), so a stack started
 * after another one (fresh anvil, same chain id 31337) needs nothing reset first.
 */
import { startStack, type Stack, type StackOptions } from '../src/service/stack';

export type { Stack };

export function startBenchStack(options: StackOptions = {}): Promise<Stack> {
  return startStack(options);
}
