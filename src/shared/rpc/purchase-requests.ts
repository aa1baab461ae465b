/** Purchases an assistant asked for over MCP, waiting for the person's word (docs/decisions/0027-mcp-server.md). */
import { z } from 'zod';
import { method } from './method';
import { baseUnits, consentPassphrase, handleInput, selectionSchema } from './common';
import type { Selection } from './common';
import type { PurchaseOutcome } from './purchases';

/**
 * A purchase an assistant asked for over MCP, waiting for the person's word (docs/decisions/0027-mcp-server.md).
 * pending: nothing paid yet; approving: an approval is paying it now; approved: paid (see purchaseId, whose
 * state says whether it completed or is in doubt); declined by the person; failed: the purchase failed;
 * expired: not approved within a day, so its price is no longer what the person would be shown.
 */
export type PurchaseRequestState = 'pending' | 'approving' | 'approved' | 'declined' | 'failed' | 'expired';

export interface PurchaseRequestView {
  id: string;
  state: PurchaseRequestState;
  serviceUrl: string;
  handle: string;
  selection: Selection;
  includeOwned: boolean;
  reportCount: number;
  /**
   * The price when it was asked for, in token base units as a decimal string: an approval pays at most this
   * (a higher live price is refused).
   */
  amount: string;
  /**
   * The terms the person approves, all kept from the price the request was made at: an approval pays these or
   * nothing (request_terms_changed). asset, unit price and report ids are null on requests recorded by a
   * version that did not keep them; those cannot be approved, only asked for again.
   */
  payTo: string;
  network: string;
  asset: string | null;
  unitPriceUnits: string | null;
  reportIds: string[] | null;
  /** Why the assistant asked, in its own words: shown to the person, never acted on. */
  reason: string | null;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  purchaseId: string | null;
  /** Why the last approval did not pay (a cap, the wallet, a changed price), or why it failed. */
  error: string | null;
}

export const purchaseRequestsMethods = {
  /**
   * Records a purchase an assistant asks for (MCP): priced live, stored as pending, and nothing is signed.
   * Only `purchaseRequest.approve`, the person's word, pays it.
   */
  // Requests are purchases not made yet: they show with the purchases, and approving one is a purchase.
  'purchaseRequest.create': method<PurchaseRequestView>()({
    input: z.object({
      handle: handleInput,
      selection: selectionSchema,
      includeOwned: z.boolean().optional(),
      reason: z.string().trim().max(500).optional(),
    }),
    reads: [],
    changes: ['purchases', 'wallet'],
  }),
  'purchaseRequests.list': method<{ requests: PurchaseRequestView[] }>()({
    input: z.object({
      state: z.enum(['pending', 'approving', 'approved', 'declined', 'failed', 'expired']).optional(),
    }),
    reads: ['purchases'],
    changes: [],
  }),
  'purchaseRequest.get': method<PurchaseRequestView>()({
    input: z.object({ id: z.string().min(1).max(100) }),
    reads: ['purchases'],
    changes: [],
  }),
  /**
   * The person approves: a fresh quote, then purchase.start with the same caps, budgets and payee pin as any
   * purchase. Refused when the live price is above the one asked for, or above `limitUnits` (what an MCP
   * session may still approve). A refusal leaves the request pending; one approval claims it, so it pays once.
   */
  'purchaseRequest.approve': method<{ request: PurchaseRequestView; outcome: PurchaseOutcome }>()({
    input: z.object({
      id: z.string().min(1).max(100),
      limitUnits: baseUnits.optional(),
      acceptOverCap: z.boolean().optional(),
      /** As purchase.start's: going over a cap with the keystore needs its passphrase (decision 0022). */
      passphrase: consentPassphrase,
      acceptPayToChange: z.boolean().optional(),
    }),
    reads: [],
    changes: ['purchases', 'library', 'menu', 'wallet', 'quote'],
  }),
  'purchaseRequest.decline': method<PurchaseRequestView>()({
    input: z.object({ id: z.string().min(1).max(100) }),
    reads: [],
    changes: ['purchases'],
  }),
};
