/**
 * anvil's own JSON-RPC time controls, for the tools that move a local chain's clock the way time really drifts
 * (the chaos run, the tests): a chain that sat idle, or a chain whose clock runs ahead of or behind the wall.
 * Takes anything with an `rpcUrl` (a Stack, a DemoChain).
 */
import { z } from 'zod';

export interface AnvilEndpoint {
  rpcUrl: string;
}

const rpcAnswer = z.union([
  z.object({ result: z.unknown() }),
  z.object({ error: z.object({ message: z.string() }) }),
]);

export async function anvilCall(
  chain: AnvilEndpoint,
  method: string,
  params: unknown[] = [],
): Promise<unknown> {
  const response = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = rpcAnswer.parse(await response.json());
  if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

const wallSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Leaves the chain as if nothing had happened on it for `seconds`: its latest block that old, its next block
 * (a transaction's, on a chain mining per transaction) on the wall clock.
 */
export async function idleFor(chain: AnvilEndpoint, seconds: number): Promise<void> {
  await anvilCall(chain, 'evm_setTime', [wallSeconds() - seconds]);
  await anvilCall(chain, 'evm_mine');
  await anvilCall(chain, 'evm_setTime', [wallSeconds()]);
}

/** Sets the chain's clock `seconds` ahead of the wall (behind when negative) and mines a block on it. */
export async function shiftChainClock(chain: AnvilEndpoint, seconds: number): Promise<void> {
  await anvilCall(chain, 'evm_setTime', [wallSeconds() + seconds]);
  await anvilCall(chain, 'evm_mine');
}
