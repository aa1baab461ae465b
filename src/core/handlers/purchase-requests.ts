/**
 * Purchases an assistant asked for (the MCP server's request_purchase): recorded here, paid only when the
 * person approves, and then through the ordinary quote and purchase.start, so every cap, budget and the payee
 * pin apply exactly as they do to a purchase made in the window or with `intel-desk buy`.
 */
import type { PurchaseOutcome, PurchaseRequestView, RpcHandlers, RpcInput } from '../../shared/rpc';
import { formatUnitsUsd } from '../../shared/money';
import type { DeskContext } from '../context';
import { DeskError, refused } from '../errors';
import type { PurchaseRequests } from '../ledger/purchase-requests';
import { quoteView } from '../payments/quote-view';

type Handlers = Pick<
  RpcHandlers,
  | 'purchaseRequest.create'
  | 'purchaseRequests.list'
  | 'purchaseRequest.get'
  | 'purchaseRequest.approve'
  | 'purchaseRequest.decline'
>;

function found(requests: PurchaseRequests, id: string): PurchaseRequestView {
  const request = requests.get(id);
  if (!request)
    throw new DeskError('request_not_found', `There is no purchase request ${id} in this library.`, 'usage');
  return request;
}

function notPending(request: PurchaseRequestView): DeskError {
  const what =
    request.state === 'approved'
      ? `was already approved${request.purchaseId ? ` (purchase ${request.purchaseId})` : ''}`
      : request.state === 'approving'
        ? 'is being approved right now'
        : `is ${request.state}`;
  return refused('request_not_pending', `Purchase request ${request.id} ${what}; nothing was paid now.`, {
    state: request.state,
  });
}

export function purchaseRequestHandlers(ctx: DeskContext): Handlers {
  const requests = ctx.purchaseRequests;
  const quote = (input: RpcInput<'quote.get'>) => quoteView(ctx, input);
  const start = (input: Parameters<RpcHandlers['purchase.start']>[0]) => ctx.startPurchase(input);

  /** Pays a claimed request; whatever stops it before money could move puts it back to pending. */
  async function pay(
    request: PurchaseRequestView,
    options: { limitUnits?: string | undefined; acceptOverCap?: boolean; acceptPayToChange?: boolean },
  ): Promise<PurchaseOutcome> {
    let outcome: PurchaseOutcome;
    try {
      if (ctx.client().baseUrl !== request.serviceUrl) {
        throw refused(
          'request_other_service',
          `Purchase request ${request.id} was made for ${request.serviceUrl}, and this run's service is ${ctx.client().baseUrl}; approve it with that service selected.`,
        );
      }
      const live = await quote({
        handle: request.handle,
        selection: request.selection,
        includeOwned: request.includeOwned,
      });
      // The person approves the price the request showed: a higher one is a new question.
      if (BigInt(live.amount) > BigInt(request.amount)) {
        throw refused(
          'request_price_changed',
          `The live price is now ${formatUnitsUsd(live.amount)}, above the ${formatUnitsUsd(request.amount)} request ${request.id} was made at; nothing was paid. Ask for it again at the new price.`,
        );
      }
      if (options.limitUnits !== undefined && BigInt(live.amount) > BigInt(options.limitUnits)) {
        throw refused(
          'over_session_limit',
          `${formatUnitsUsd(live.amount)} is more than this MCP session may still approve (${formatUnitsUsd(options.limitUnits)}); nothing was paid. The person can approve it with \`intel-desk approve ${request.id}\`.`,
        );
      }
      outcome = await start({
        quoteId: live.quoteId,
        confirmedAmount: live.amount,
        acceptOverCap: options.acceptOverCap ?? false,
        acceptPayToChange: options.acceptPayToChange ?? false,
      });
    } catch (error) {
      requests.release(request.id, error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (outcome.status === 'completed') requests.settle(request.id, 'approved', outcome.purchase.id, null);
    // Money may have moved: the request is spent, and the purchase's own state tells what became of it.
    else if (outcome.status === 'in_doubt')
      requests.settle(request.id, 'approved', outcome.purchase.id, outcome.message);
    else if (outcome.status === 'failed')
      requests.settle(request.id, 'failed', outcome.purchase?.id ?? null, outcome.message);
    // A wallet in the window signs next: the purchase is recorded, so the request is spent and never paid twice.
    else
      requests.settle(
        request.id,
        'approved',
        outcome.request.purchaseId,
        'Waiting for the wallet in the app to sign.',
      );
    return outcome;
  }

  return {
    'purchaseRequest.create': async ({ handle, selection, includeOwned, reason }) => {
      // Priced now, so the person is asked about a real price; signs nothing.
      const live = await quote({ handle, selection, includeOwned: includeOwned ?? false });
      return requests.create({
        serviceUrl: ctx.client().baseUrl,
        handle: live.handle,
        selection: live.selection,
        includeOwned: live.includesOwned,
        reportCount: live.reportCount,
        amount: BigInt(live.amount),
        payTo: live.payTo,
        network: live.network,
        reason: reason === undefined || reason === '' ? null : reason,
      });
    },
    'purchaseRequests.list': async ({ state }) => ({ requests: requests.list(state) }),
    'purchaseRequest.get': async ({ id }) => found(requests, id),
    'purchaseRequest.approve': async ({ id, limitUnits, acceptOverCap, acceptPayToChange }) => {
      const request = found(requests, id);
      if (request.state !== 'pending' || !requests.claim(id)) throw notPending(found(requests, id));
      const outcome = await pay(request, {
        limitUnits,
        acceptOverCap: acceptOverCap ?? false,
        acceptPayToChange: acceptPayToChange ?? false,
      });
      return { request: found(requests, id), outcome };
    },
    'purchaseRequest.decline': async ({ id }) => {
      const request = found(requests, id);
      if (!requests.decline(id)) throw notPending(request);
      return found(requests, id);
    },
  };
}
