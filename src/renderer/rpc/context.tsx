/**
 * The RPC client in React context, react-query hooks keyed by method and input, and core's events. The
 * client refreshes, after every call, what the contract says the call changes (invalidation.ts); core's
 * events are subscribed to once, here, and refresh what they change too. Screens keep no invalidation lists.
 */
// Before shared/events.ts builds its schemas: this module is shared with the screens loaded later, so the
// bundler runs it (and events.ts) in a common chunk ahead of main.tsx's own code, and main.tsx's import of
// zod-jitless alone would come too late.
import '../zod-jitless';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useMutation, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { RpcClient, RpcInput, RpcMethod, RpcOutputs } from '../../shared/rpc';
import { eventChanges, type DeskEvent } from '../../shared/events';
import type { DeskEventFeed } from './client';
import type { Invalidator } from './invalidation';
import { rpcQueryKey } from './query-key';

interface RpcContextValue {
  client: RpcClient;
  mode: 'electron' | 'browser';
  /** Listens to core's events until the returned function is called. */
  onEvent(listener: (event: DeskEvent) => void): () => void;
}

const RpcContext = createContext<RpcContextValue | null>(null);

export function RpcProvider(props: {
  /** client: one that refreshes what each call changes (refreshingClient), with the invalidator it uses. */
  value: { client: RpcClient; events: DeskEventFeed; mode: 'electron' | 'browser'; invalidator: Invalidator };
  children: ReactNode;
}) {
  const { client, events, mode, invalidator } = props.value;
  const listeners = useRef(new Set<(event: DeskEvent) => void>());
  useEffect(
    () =>
      events.subscribe(
        (event) => {
          invalidator.changed(eventChanges[event.type]);
          for (const listener of listeners.current) listener(event);
        },
        () => invalidator.everything(),
      ),
    [events, invalidator],
  );
  const value = useMemo<RpcContextValue>(
    () => ({
      client,
      mode,
      onEvent: (listener) => {
        listeners.current.add(listener);
        return () => {
          listeners.current.delete(listener);
        };
      },
    }),
    [client, mode],
  );
  return <RpcContext.Provider value={value}>{props.children}</RpcContext.Provider>;
}

export function useRpc(): RpcContextValue {
  const value = useContext(RpcContext);
  if (!value) throw new Error('RpcProvider is missing');
  return value;
}

/** Runs `listener` for each of core's events while the component is shown. */
export function useDeskEvent(listener: (event: DeskEvent) => void): void {
  const { onEvent } = useRpc();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onEvent((event) => latest.current(event)), [onEvent]);
}

export function useRpcQuery<M extends RpcMethod>(
  method: M,
  input: RpcInput<M>,
  options: Omit<UseQueryOptions<RpcOutputs[M]>, 'queryKey' | 'queryFn'> = {},
) {
  const { client } = useRpc();
  return useQuery<RpcOutputs[M]>({
    queryKey: rpcQueryKey(method, input),
    queryFn: () => client.call(method, input),
    ...options,
  });
}

/**
 * A call that changes something, or that the person sets off (an export); what it changes is refreshed by
 * the client (rpcEffects), not here. `onSuccess` runs with each answer, even after the caller has gone.
 */
export function useRpcMutation<M extends RpcMethod>(
  method: M,
  options: { onSuccess?: (value: RpcOutputs[M]) => void; mutationKey?: readonly unknown[] } = {},
) {
  const { client } = useRpc();
  return useMutation<RpcOutputs[M], Error, RpcInput<M>>({
    mutationFn: (input) => client.call(method, input),
    ...(options.onSuccess ? { onSuccess: options.onSuccess } : {}),
    ...(options.mutationKey ? { mutationKey: options.mutationKey } : {}),
  });
}
