/** quote.get: the live price of a choice; payments/quote-view.ts builds it. */
import type { RpcHandlers } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';
import { quoteView } from '../payments/quote-view';

export const quoteHandlers = (ctx: DeskContext): Pick<RpcHandlers, 'quote.get'> => ({
  'quote.get': (input) => quoteView(ctx, input),
});
