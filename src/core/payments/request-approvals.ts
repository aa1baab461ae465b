/**
 * Purchases an assistant asked for (the MCP server's request_purchase): recorded here with every term the
 * person is shown, paid only when the person approves, and then on those terms or not at all (decision 0039),
 * through the ordinary purchase.start, so every cap, budget and the payee pin apply exactly as they do to a
 * purchase made in the window or with `intel-desk buy`.
 */
import type { PurchaseOutcome, PurchaseRequestView, QuoteView, RpcInput } from '../../shared/rpc';
import { formatUnitsUsd } from '../../shared/money';
import { DeskError, refused } from '../base/errors';
import type { PurchaseRequests } from '../ledger/purchase-requests';
import type { QuoteBook } from './quote-book';
import type { PricedChoice } from './quoting';
import { assertRequestTerms } from './request-terms';

export interface RequestApprovalsDeps {
  readonly requests: PurchaseRequests;
  readonly quotes: Pick<QuoteBook, 'get'>;
  /** The service this run buys from: a request is paid only there. */
  serviceUrl(): string;
  /** quote.get's answer (quote-view.ts): what the person is asked about. */
  quote(input: RpcInput<'quote.get'>): Promise<QuoteView>;
  /** The live price of the request's choice (quoting.ts). */
  price(
    handle: string,
    selection: PurchaseRequestView['selection'],
    includeOwned: boolean,
  ): Promise<PricedChoice>;
  /** purchase.start with the person's consent to going over a limit (consent.ts). */
  start(input: RpcInput<'purchase.start'>): Promise<PurchaseOutcome>;
}

type Approval = Omit<RpcInput<'purchaseRequest.approve'>, 'id'>;

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

export class RequestApprovals {
  constructor(private readonly deps: RequestApprovalsDeps) {}

  get(id: string): PurchaseRequestView {
    const request = this.deps.requests.get(id);
    if (!request)
      throw new DeskError(
        'request_not_found',
        `There is no purchase request ${id} in this library.`,
        'usage',
      );
    return request;
  }

  list(state: RpcInput<'purchaseRequests.list'>['state']): { requests: PurchaseRequestView[] } {
    return { requests: this.deps.requests.list(state) };
  }

  /** Priced now, so the person is asked about a real price; signs nothing. */
  async create({ handle, selection, includeOwned, reason }: RpcInput<'purchaseRequest.create'>) {
    const live = await this.deps.quote({ handle, selection, includeOwned: includeOwned ?? false });
    const held = this.deps.quotes.get(live.quoteId);
    if (!held) throw refused('quote_unknown', 'The price quote was lost before it could be kept; ask again.');
    return this.deps.requests.create({
      serviceUrl: this.deps.serviceUrl(),
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
  }

  async approve({ id, ...approval }: RpcInput<'purchaseRequest.approve'>) {
    // The claim is the only check: a request read as pending here could be claimed by another process next.
    if (!this.deps.requests.claim(id)) throw notPending(this.get(id));
    const outcome = await this.pay(this.get(id), approval);
    return { request: this.get(id), outcome };
  }

  decline(id: string): PurchaseRequestView {
    const request = this.get(id);
    if (!this.deps.requests.decline(id)) throw notPending(request);
    return this.get(id);
  }

  /** Pays a claimed request; whatever stops it before money could move puts it back to pending. */
  private async pay(request: PurchaseRequestView, options: Approval): Promise<PurchaseOutcome> {
    const { requests } = this.deps;
    let outcome: PurchaseOutcome;
    try {
      const serviceUrl = this.deps.serviceUrl();
      if (serviceUrl !== request.serviceUrl) {
        throw refused(
          'request_other_service',
          `Purchase request ${request.id} was made for ${request.serviceUrl}, and this run's service is ${serviceUrl}; approve it with that service selected.`,
        );
      }
      const { held: live } = await this.deps.price(request.handle, request.selection, request.includeOwned);
      // The person approves what the request showed: any other term is a new question.
      assertRequestTerms(request, live);
      if (options.limitUnits !== undefined && live.quote.amount > BigInt(options.limitUnits)) {
        throw refused(
          'over_session_limit',
          `${formatUnitsUsd(live.quote.amount)} is more than this MCP session may still approve (${formatUnitsUsd(options.limitUnits)}); nothing was paid. The person can approve it with \`intel-desk approve ${request.id}\`.`,
        );
      }
      outcome = await this.deps.start({
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
}
