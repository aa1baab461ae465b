/**
 * Moves a test chain's time with anvil's own controls, the way time really drifts: a chain that sat idle (its
 * latest block old, its next one on the wall clock) or a chain whose clock runs ahead of or behind the wall.
 */
import { z } from 'zod';
import type { Stack } from '../../src/service/stack';

const rpcAnswer = z.union([
  z.object({ result: z.unknown() }),
  z.object({ error: z.object({ message: z.string() }) }),
]);

export async function anvilCall(stack: Stack, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(stack.rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = rpcAnswer.parse(await response.json());
  if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

const wallSeconds = () => Math.floor(Date.now() / 1000);

/** The latest block's timestamp, in seconds. */
export async function latestBlockTime(stack: Stack): Promise<number> {
  const block = await stack.chain.clients.publicClient.getBlock({ blockTag: 'latest' });
  return Number(block.timestamp);
}

/**
 * Leaves the chain as if nothing had happened on it for `seconds`: its latest block that old, its next block
 * (a transaction's, on a chain mining per transaction) on the wall clock.
 */
export async function idleFor(stack: Stack, seconds: number): Promise<void> {
  await anvilCall(stack, 'evm_setTime', [wallSeconds() - seconds]);
  await anvilCall(stack, 'evm_mine');
  await anvilCall(stack, 'evm_setTime', [wallSeconds()]);
}

/** Sets the chain's clock `seconds` ahead of the wall (behind when negative) and mines a block on it. */
export async function shiftChainClock(stack: Stack, seconds: number): Promise<void> {
  await anvilCall(stack, 'evm_setTime', [wallSeconds() + seconds]);
  await anvilCall(stack, 'evm_mine');
}
