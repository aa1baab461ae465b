/**
 * The one place the window decides what to ask core again: after a call, the queries whose method reads a
 * topic the call changes (rpcEffects in the contract); on an event, the topics it names (eventChanges).
 * Topics are gathered for one turn of the event loop, so a call's answer and the events it caused refresh
 * each query once.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  rpcEffects,
  rpcInputs,
  type RpcClient,
  type RpcInput,
  type RpcMethod,
  type RpcOutputs,
  type RpcTopic,
} from '../../shared/rpc';

function isMethod(key: unknown): key is RpcMethod {
  return typeof key === 'string' && Object.hasOwn(rpcInputs, key);
}

/** Methods whose queries read any of the topics. */
export function readersOf(topics: Iterable<RpcTopic>): Set<RpcMethod> {
  const wanted = new Set(topics);
  const readers = new Set<RpcMethod>();
  for (const method of Object.keys(rpcEffects) as RpcMethod[])
    if (rpcEffects[method].reads.some((topic) => wanted.has(topic))) readers.add(method);
  return readers;
}

export interface Invalidator {
  changed(topics: readonly RpcTopic[]): void;
  /** Everything: the event stream was down, so any change may have been missed. */
  everything(): void;
}

export function createInvalidator(queryClient: QueryClient): Invalidator {
  let pending: Set<RpcTopic> | null = null;
  const flush = () => {
    const readers = readersOf(pending ?? []);
    pending = null;
    void queryClient.invalidateQueries({
      predicate: (query) => {
        const method = query.queryKey[0];
        return isMethod(method) && readers.has(method);
      },
    });
  };
  return {
    changed(topics) {
      if (topics.length === 0) return;
      if (!pending) {
        pending = new Set();
        setTimeout(flush, 0);
      }
      for (const topic of topics) pending.add(topic);
    },
    everything() {
      void queryClient.invalidateQueries();
    },
  };
}

/** The client every part of the window uses: after each call, what the call changes is asked again. */
export function refreshingClient(client: RpcClient, invalidator: Invalidator): RpcClient {
  return {
    async call<M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]> {
      try {
        return await client.call(method, input);
      } finally {
        // A refused call may still have changed something (a purchase held in doubt, a secret refused).
        invalidator.changed(rpcEffects[method].changes);
      }
    },
  };
}
