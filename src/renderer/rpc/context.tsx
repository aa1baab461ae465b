/** The RPC client in React context, and react-query hooks keyed by method and input. */
import { createContext, useContext, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { RpcClient, RpcInput, RpcMethod, RpcOutputs } from '../../shared/rpc';

interface RpcContextValue {
  client: RpcClient;
  mode: 'electron' | 'browser';
}

const RpcContext = createContext<RpcContextValue | null>(null);

export function RpcProvider(props: { value: RpcContextValue; children: ReactNode }) {
  return <RpcContext.Provider value={props.value}>{props.children}</RpcContext.Provider>;
}

export function useRpc(): RpcContextValue {
  const value = useContext(RpcContext);
  if (!value) throw new Error('RpcProvider is missing');
  return value;
}

export function useRpcQuery<M extends RpcMethod>(
  method: M,
  input: RpcInput<M>,
  options: Omit<UseQueryOptions<RpcOutputs[M]>, 'queryKey' | 'queryFn'> = {},
) {
  const { client } = useRpc();
  return useQuery<RpcOutputs[M]>({
    queryKey: [method, input],
    queryFn: () => client.call(method, input),
    ...options,
  });
}

/** A mutation that refreshes the listed methods' queries when it succeeds. */
export function useRpcMutation<M extends RpcMethod>(method: M, invalidates: RpcMethod[] = []) {
  const { client } = useRpc();
  const queryClient = useQueryClient();
  return useMutation<RpcOutputs[M], Error, RpcInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSuccess: async () => {
      await Promise.all(invalidates.map((m) => queryClient.invalidateQueries({ queryKey: [m] })));
    },
  });
}
