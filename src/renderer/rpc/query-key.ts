import type { RpcInput, RpcMethod } from '../../shared/rpc';

/**
 * The react-query key of an RPC answer. Every query is keyed this way, method first, so the invalidator
 * (invalidation.ts) finds the readers of a changed topic by the key's first element.
 */
export function rpcQueryKey<M extends RpcMethod>(method: M, input: RpcInput<M>): readonly [M, RpcInput<M>] {
  return [method, input];
}
