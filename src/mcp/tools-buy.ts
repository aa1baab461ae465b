/**
 * Buying: the assistant may only ask. request_purchase records a pending request (priced live, nothing
 * signed); money moves only on the person's word: their answer to an MCP elicitation, when the client offers
 * elicitation and the amount fits in what this session may still approve (--allow-spend), or
 * `intel-desk approve <id>` in a terminal. Either way the approval is core's purchaseRequest.approve: a fresh
 * quote and purchase.start, with every cap, budget and the payee pin.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatUnitsUsd } from '../shared/money';
import type { PurchaseOutcome, PurchaseRequestView } from '../shared/rpc';
import { ToolRefusal, type CoreCall } from './call';
import { guarded, json, structured, text, type Out } from './result';
import { requestPurchaseOut, requestStatusOut } from './outputs';
import { handleArg, selectionOf, selectionShape } from './selection';
import type { SpendingSession } from './session';
import { purchaseSummary, requestSummary } from './tools-catalog';
import { plain } from './text';
import { money } from './money';

export interface BuyOptions {
  session: SpendingSession;
  /** Why this server cannot sign a payment, when it cannot (no wallet, locked): approval is then out of band. */
  cannotSign: string | null;
  /** Aborted when the client closed stdin: nobody can answer a question any more. */
  closing: AbortSignal;
}

const NOTHING_MOVED = 'Nothing was bought and no money moved.';

/** A request that waits for the person: what was said, how they can approve it, and the request. */
function pending(said: string, request: PurchaseRequestView): CallToolResult {
  const data: Out<typeof requestPurchaseOut> = {
    outcome: 'pending',
    said,
    request: requestSummary(request),
    approveWith: outOfBand(request.id),
  };
  return structured(data, said, outOfBand(request.id), json(data));
}

const outOfBand = (id: string) =>
  `The person can approve it in a terminal with \`intel-desk approve ${id}\` (or decline it with \`intel-desk approve ${id} --decline\`); check its state with get_purchase_request.`;

/** Why the person is not asked here and now; null when they can be. */
function whyNotAskedNow(server: McpServer, options: BuyOptions, request: PurchaseRequestView): string | null {
  if (options.session.limit === 0n)
    return 'This MCP session was started without a spending limit (--allow-spend 0), so purchases can only be approved outside it.';
  if (options.cannotSign) return `This MCP session cannot sign a payment: ${options.cannotSign}`;
  if (!server.server.getClientCapabilities()?.elicitation?.form)
    return 'This MCP client cannot ask the person (it does not offer elicitation).';
  if (!options.session.fits(BigInt(request.amount)))
    return `${formatUnitsUsd(request.amount)} is more than this session may still approve (${formatUnitsUsd(options.session.remainingUnits())} of its ${formatUnitsUsd(options.session.limit)} limit).`;
  return null;
}

function question(request: PurchaseRequestView, remainingUnits: bigint): string {
  return [
    `An assistant asks Intel Desk to buy ${request.reportCount} report(s) of @${request.handle} for ${formatUnitsUsd(request.amount)}`,
    `from ${request.serviceUrl}, paid in USDC on ${request.network} to ${request.payTo}.`,
    request.reason ? `The assistant's reason: "${plain(request.reason)}".` : '',
    `This session may still approve ${formatUnitsUsd(remainingUnits)}. Caps, budgets and the payee pin apply as to any purchase.`,
    `Request ${request.id}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

function outcomeText(outcome: PurchaseOutcome): string {
  switch (outcome.status) {
    case 'completed':
      return outcome.purchase.paidWith === 'library_secret'
        ? `The person approved: ${outcome.purchase.reportIds.length} report(s) were read with the library secret; nothing was paid. Read them with read_report.`
        : `The person approved: ${outcome.purchase.reportIds.length} report(s) bought for ${formatUnitsUsd(outcome.purchase.amount)} (purchase ${outcome.purchase.id}, transaction ${outcome.purchase.txHash ?? 'none'}). Read them with read_report.`;
    case 'in_doubt':
      return `The person approved, and the purchase is IN DOUBT: ${outcome.message} It is never paid again automatically.`;
    case 'failed':
      return `The person approved, and the purchase FAILED: ${outcome.message}`;
    case 'needs_signature':
      return 'The person approved; the wallet in use signs in the app, where the purchase waits for its signature. No money has moved yet.';
  }
}

/** Spent units of an approval: what left, or may have left, the wallet. */
function spentUnits(outcome: PurchaseOutcome): bigint {
  if (outcome.status === 'completed' && outcome.purchase.paidWith === 'payment')
    return BigInt(outcome.purchase.amount);
  if (outcome.status === 'in_doubt') return BigInt(outcome.purchase.amount);
  return 0n;
}

async function askThePerson(
  server: McpServer,
  call: CoreCall,
  options: BuyOptions,
  request: PurchaseRequestView,
): Promise<CallToolResult> {
  const units = BigInt(request.amount);
  const before = options.session.remainingUnits();
  if (!options.session.reserve(units))
    return pending(
      `${NOTHING_MOVED} Request ${request.id} is pending: another approval in this session holds what is left of its limit.`,
      request,
    );
  let spent = 0n;
  try {
    const answer = await server.server.elicitInput(
      {
        message: question(request, before),
        requestedSchema: {
          type: 'object',
          properties: {
            approve: {
              type: 'boolean',
              title: `Buy for ${formatUnitsUsd(request.amount)}`,
              description: 'Yes pays now; no leaves the request pending for `intel-desk approve`.',
            },
          },
          required: ['approve'],
        },
      },
      { signal: options.closing },
    );
    if (answer.action !== 'accept' || answer.content?.['approve'] !== true) {
      const how =
        answer.action === 'accept' ? 'said no' : answer.action === 'decline' ? 'declined' : 'cancelled';
      return pending(`The person ${how}. ${NOTHING_MOVED} Request ${request.id} stays pending.`, request);
    }
    // What was reserved for this request is all it may pay in this session.
    const approved = await call('purchaseRequest.approve', { id: request.id, limitUnits: request.amount });
    spent = spentUnits(approved.outcome);
    await server.sendLoggingMessage({
      level: 'notice',
      logger: 'intel-desk',
      data: `purchase request ${request.id} approved by the person: ${approved.outcome.status}`,
    });
    const data: Out<typeof requestPurchaseOut> = {
      outcome: approved.outcome.status,
      said: outcomeText(approved.outcome),
      request: requestSummary(approved.request),
      ...('purchase' in approved.outcome && approved.outcome.purchase
        ? { purchase: purchaseSummary(approved.outcome.purchase) }
        : {}),
      sessionLimitLeft: money(options.session.remainingUnits() + units - spent),
    };
    return structured(data, data.said, json(data));
  } catch (error) {
    if (error instanceof ToolRefusal)
      return {
        isError: true,
        ...text(
          `The person approved, but Intel Desk refused to pay: ${error.message} [${error.code}] ${NOTHING_MOVED} Request ${request.id} stays pending.`,
          outOfBand(request.id),
        ),
      };
    throw error;
  } finally {
    options.session.settle(units, spent);
  }
}

export function buyTools(server: McpServer, call: CoreCall, options: BuyOptions): void {
  server.registerTool(
    'request_purchase',
    {
      title: 'Ask the person to buy reports',
      description: [
        'Ask the person to buy reports. This tool cannot buy by itself: it records a purchase request at the live price and,',
        'where this client can ask the person and the session allows it, asks them now. Money moves only if the person approves;',
        'otherwise the request stays pending and the answer says so and how the person can approve it. Choose exactly one of',
        'all, from/to, ids (check the price with get_quote first). Give the person your reason.',
      ].join(' '),
      inputSchema: {
        handle: handleArg,
        ...selectionShape,
        reason: z
          .string()
          .trim()
          .min(1, 'reason is required: say in a sentence why these reports are worth buying')
          .max(500)
          .describe('Why these reports are worth buying, in a sentence the person will read.'),
      },
      outputSchema: requestPurchaseOut,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    guarded(async (args) => {
      const request = await call('purchaseRequest.create', {
        handle: args.handle,
        selection: selectionOf(args),
        includeOwned: args.includeOwned ?? false,
        reason: args.reason,
      });
      const why = whyNotAskedNow(server, options, request);
      if (why !== null)
        return pending(
          `${NOTHING_MOVED} Purchase request ${request.id} is pending the person's approval: ${request.reportCount} report(s) of @${request.handle} for ${formatUnitsUsd(request.amount)}. ${why}`,
          request,
        );
      return askThePerson(server, call, options, request);
    }),
  );

  server.registerTool(
    'get_purchase_request',
    {
      title: 'State of a purchase request',
      description:
        'The state of a purchase request made with request_purchase: pending (nothing paid), approved (see its purchase), declined, failed or expired.',
      inputSchema: {
        id: z
          .string()
          .trim()
          .regex(/^req_[0-9a-f]+$/, 'id is a purchase request id such as "req_1a2b3c4d5e6f"')
          .describe('The request id request_purchase answered with.'),
      },
      outputSchema: requestStatusOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async ({ id }) => {
      const request = await call('purchaseRequest.get', { id });
      const purchase =
        request.purchaseId === null
          ? null
          : ((await call('purchases.list', {})).purchases.find((p) => p.id === request.purchaseId) ?? null);
      const data: Out<typeof requestStatusOut> = {
        request: requestSummary(request),
        ...(purchase ? { purchase: purchaseSummary(purchase) } : {}),
      };
      return structured(data, json(data));
    }),
  );
}
