/**
 * The live quote of the choice on a menu. The price panel and the planner both ask for it with the same key,
 * so react-query asks core once and both show the same answer.
 */
import type { Selection } from '../../../shared/rpc';
import { useRpcQuery } from '../../rpc/context';

export function useChoiceQuote(handle: string, selection: Selection | null, includeOwned: boolean) {
  return useRpcQuery(
    'quote.get',
    {
      handle,
      selection: selection ?? { kind: 'all' as const },
      ...(includeOwned ? { includeOwned: true } : {}),
    },
    { enabled: selection !== null, staleTime: 20_000, retry: false },
  );
}
