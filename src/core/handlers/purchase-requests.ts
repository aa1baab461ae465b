/**
 * Purchases an assistant asked for (the MCP server's request_purchase): recorded here with every term the
 * person is shown, paid only when the person approves, and then on those terms or not at all (decision 0039),
 * through the ordinary purchase.start, so every cap, budget and the payee pin apply exactly as they do to a
 * purchase made in the window or with `intel-desk buy`.
 */
import type { PurchaseOutcome, PurchaseRequestView, RpcHandlers, RpcInput } from '../../shared/rpc';
import { formatUnitsUsd } from '../../shared/money';
import type { DeskContext } from '../desk/context';
import { DeskError, refused } from '../base/errors';
import type { PurchaseRequests } from '../ledger/purchase-requests';
import { quoteView } from '../payments/quote-view';
import { priceChoice } from '../payments/quoting';
import { assertRequestTerms } from '../payments/request-terms';
import { consentToOverCap } from '../payments/consent';

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
  const start = async (input: Parameters<RpcHandlers['purchase.start']>[0]) =>
    ctx.startPurchase(await consentToOverCap(ctx, input));

  /** Pays a claimed request; whatever stops it before money could move puts it back to pending. */
  async function pay(
    request: PurchaseRequestView,
    options: {
      limitUnits?: string | undefined;
      acceptOverCap?: boolean;
      passphrase?: string | undefined;
      acceptPayToChange?: boolean;
    },
  ): Promise<PurchaseOutcome> {
    let outcome: PurchaseOutcome;
    try {
      if (ctx.client().baseUrl !== request.serviceUrl) {
        throw refused(
          'request_other_service',
          `Purchase request ${request.id} was made for ${request.serviceUrl}, and this run's service is ${ctx.client().baseUrl}; approve it with that service selected.`,
        );
      }
      const { held: live } = await priceChoice(ctx, request.handle, request.selection, request.includeOwned);
      // The person approves what the request showed: any other term is a new question.
      assertRequestTerms(request, live);
      if (options.limitUnits !== undefined && live.quote.amount > BigInt(options.limitUnits)) {
        throw refused(
          'over_session_limit',
          `${formatUnitsUsd(live.quote.amount)} is more than this MCP session may still approve (${formatUnitsUsd(options.limitUnits)}); nothing was paid. The person can approve it with \`intel-desk approve ${request.id}\`.`,
        );
      }
      outcome = await start({
        quoteId: live.id,
        confirmedAmount: live.quote.amount.toString(),
        acceptOverCap: options.acceptOverCap ?? false,
        passphrase: options.passphrase,
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
      const held = ctx.quotes.get(live.quoteId);
      if (!held)
        throw refused('quote_unknown', 'The price quote was lost before it could be kept; ask again.');
      return requests.create({
        serviceUrl: ctx.client().baseUrl,
        handle: live.handle,
        selection: live.selection,
        includeOwned: live.includesOwned,
        reportCount: live.reportCount,
        amount: BigInt(live.amount),
        payTo: live.payTo,
        network: live.network,
        asset: live.asset,
        unitPrice: BigInt(live.unitPriceUnits),
        reportIds: held.expectedIds,
        reason: reason === undefined || reason === '' ? null : reason,
      });
    },
    'purchaseRequests.list': async ({ state }) => ({ requests: requests.list(state) }),
    'purchaseRequest.get': async ({ id }) => found(requests, id),
    'purchaseRequest.approve': async ({ id, limitUnits, acceptOverCap, passphrase, acceptPayToChange }) => {
      // The claim is the only check: a request read as pending here could be claimed by another process next.
      if (!requests.claim(id)) throw notPending(found(requests, id));
      const outcome = await pay(found(requests, id), {
        limitUnits,
        acceptOverCap: acceptOverCap ?? false,
        passphrase,
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
