/** Quotes from the 402 challenge, purchases and their ledger, spending, and receipts. */
import { z } from 'zod';
import { method } from './method';
import type { Receipt } from '../receipt';
import type { LastPriceView, SpendView } from '../spend';
import { baseUnits, consentPassphrase, handleInput, limitUnits, selectionSchema } from './common';
import type { ExportedFile, PaidWith, PurchaseState, Selection } from './common';
import type { DeskErrorCode } from '../error-codes';
import type { QuoteTeamView } from './team';

/** A day (2026-10-01) or an ISO timestamp, as the ledger's createdAt is compared with it. */
const isoDayOrTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, 'a day (2026-10-01) or an ISO time');

export interface QuoteView {
  quoteId: string;
  /**
   * What purchase.start does when not told: 'library_secret' when the secret is set (core reads the reports
   * with it and signs nothing), else 'payment'.
   */
  paidWith: PaidWith;
  /** The library secret is set for this service, so the choice can be read with it instead of bought. */
  secretAvailable: boolean;
  /** False when only the secret can settle it: the service asks for a network Intel Desk does not pay on. */
  payable: boolean;
  handle: string;
  /** What is priced and would be paid for: the missing ids of the choice unless owned ones are included. */
  selection: Selection;
  /** How many reports are paid for. */
  reportCount: number;
  /** Reports of the choice already in the library (from this service). */
  ownedCount: number;
  /** Reports of the choice not in the library yet. */
  missingCount: number;
  /** True when the owned reports are bought again (an explicit choice); false when they are left out. */
  includesOwned: boolean;
  /**
   * What buying the owned reports again costs (ownedCount × the unit price), in token base units; part of
   * `amount` only if included.
   */
  ownedCostUnits: string;
  /** The price of one report, in token base units. */
  unitPriceUnits: string;
  /** What is paid, in token base units as a decimal string: the challenge's `amount`, exactly. */
  amount: string;
  tokenDecimals: number;
  network: string;
  chainId: number;
  asset: string;
  payTo: string;
  /** 'pinned' = same payee as before, 'new' = first purchase from this service, 'changed' = differs from the pin. */
  payToStatus: 'pinned' | 'new' | 'changed';
  pinnedPayTo: string | null;
  overPurchaseCap: boolean;
  overDailyCap: boolean;
  /** Over the handle's monthly budget, counting what it committed this month; false when it has none. */
  overHandleBudget: boolean;
  /**
   * An earlier purchase of some of these reports that was sent and may still settle (on its way, or in
   * doubt): core refuses to pay for them again until Purchases resolves it.
   */
  unresolved: { purchaseId: string; state: 'sent' | 'in_doubt'; createdAt: string } | null;
  /**
   * In a team (decision 0050): who owns or is buying the priced reports, and what Buy would meet, from the
   * reservation's dry run; null for a desk in no team.
   */
  team: QuoteTeamView | null;
  /** Which of the service's payment options is paid (1-based), of how many; the first one the rules allow. */
  option: { number: number; of: number };
  /** Facts of the payment the service stated in its challenge, and facts Intel Desk derived (see QuoteFact). */
  stated: QuoteFact[];
  derived: QuoteFact[];
  fetchedAt: string;
  expiresAt: string;
}

/**
 * A fact a payment is built on. The spec's challenge states each (its `extensions`); a stock x402 server states
 * none, and the desk derives them: the count from its selection against the free menu, the unit price as
 * amount ÷ count, the chain from the network, the decimals from USDC, the selection and resource from its request.
 */
export type QuoteFact = 'reportCount' | 'unitPrice' | 'chainId' | 'tokenDecimals' | 'select' | 'resource';

/**
 * What an unfinished purchase waits for before Intel Desk can settle it; every kind carries a sentence to show.
 * chain: the chain RPC at rpcUrl did not answer (checked again on the next start or refresh).
 * expiry: nothing can be learned before `until` (the authorization's validBefore); after it no charge can happen.
 * A `refusal` (chain, expiry) is the reason the service gave for refusing the payment after it left: believed
 * only once the chain, or without one the desk's clock well past validBefore, says it can no longer settle.
 * chain_access: the authorization has closed, but only a chain RPC URL can tell whether it settled before then.
 * redelivery: paid on chain, the reports never arrived; only the service can deliver them (never paid again).
 */
export type PurchaseWait =
  | { kind: 'chain'; rpcUrl: string; summary: string; refusal?: string | undefined }
  | { kind: 'expiry'; until: string; summary: string; refusal?: string | undefined }
  | { kind: 'chain_access'; summary: string }
  | { kind: 'redelivery'; txHash: string | null; summary: string }
  /** Paid and answered, but the disk was full: the answer is kept and stored on the next check. */
  | { kind: 'storage'; summary: string };

export interface PurchaseView {
  id: string;
  paidWith: PaidWith;
  handle: string;
  resource: string;
  reportCount: number;
  /** What was asked for, in token base units as a decimal string. */
  amount: string;
  /**
   * What actually left the wallet, in token base units: the amount once settled (completed, or paid on chain
   * and not yet delivered), "0" when failed or read with the library secret, null while unknown (in doubt: up
   * to `amount`).
   */
  movedUnits: string | null;
  /**
   * Brought back from its service by signing in (intel-desk restore): 'on_chain' once the chain confirmed its
   * payment (then it counts as any purchase), 'unconfirmed' on the service's word alone (outside the caps and
   * spend totals, movedUnits null). Absent or null for a purchase made here.
   */
  restored?: 'on_chain' | 'unconfirmed' | null;
  payer: string;
  payTo: string;
  network: string;
  state: PurchaseState;
  txHash: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  reportIds: string[];
  /** Set while the purchase is in doubt: what its reconciliation waits for. Absent or null otherwise. */
  waitingFor?: PurchaseWait | null;
  /** When reconciliation last looked at this purchase (start of the app, or purchases.reconcile). */
  checkedAt?: string | null;
}

export interface PurchasesView {
  purchases: PurchaseView[];
  /** Token base units, as every amount of money in the contract (decision 0034). */
  spentTodayUnits: string;
  dailyCapUnits: string;
  perPurchaseCapUnits: string;
}

export interface ExternalSignRequest {
  purchaseId: string;
  /** EIP-712 typed data (TransferWithAuthorization) for the connected wallet; bigints as decimal strings. */
  typedData: {
    domain: { name: string; version: string; chainId: number; verifyingContract: string };
    types: Record<string, { name: string; type: string }[]>;
    primaryType: 'TransferWithAuthorization';
    message: Record<string, string>;
  };
}

export type PurchaseOutcome =
  | { status: 'completed'; purchase: PurchaseView }
  | { status: 'needs_signature'; request: ExternalSignRequest }
  | { status: 'failed'; purchase: PurchaseView | null; code: DeskErrorCode; message: string }
  | { status: 'in_doubt'; purchase: PurchaseView; message: string };

export interface BudgetView {
  handle: string;
  /** In token base units; null = no budget. */
  monthlyUnits: string | null;
  /** Why the handle could not be checked against the shelf (no answer and no saved copy). */
  unchecked?: string;
}

export const purchasesMethods = {
  // Core tells the balance of the token the last quote asked for: a quote can change what wallet.status says.
  'quote.get': method<QuoteView>()({
    input: z.object({
      handle: handleInput,
      selection: selectionSchema,
      /** Buy reports of the choice that are already owned again; by default only the missing ones are priced. */
      includeOwned: z.boolean().optional(),
    }),
    reads: ['quote'],
    changes: ['wallet'],
  }),
  'quote.lastPrice': method<LastPriceView | null>()({
    input: z.object({ handle: handleInput }),
    reads: ['quote', 'purchases'],
    changes: [],
  }),
  // A purchase moves money and stores reports: the quote of the same choice is stale (owned, daily cap).
  'purchase.start': method<PurchaseOutcome>()({
    input: z.object({
      quoteId: z.string().min(1),
      confirmedAmount: baseUnits,
      acceptPayToChange: z.boolean().optional(),
      acceptOverCap: z.boolean().optional(),
      /** With acceptOverCap, on a payment the keystore signs that is over a cap (decision 0022). */
      passphrase: consentPassphrase,
      /**
       * Pay, or read with the library secret (the window always says which, as the person chose); unsaid, the
       * quote's paidWith (the CLI's `buy`).
       */
      paidWith: z.enum(['payment', 'library_secret']).optional(),
    }),
    reads: [],
    changes: ['purchases', 'library', 'menu', 'wallet', 'quote'],
  }),
  'purchase.submitSignature': method<PurchaseOutcome>()({
    input: z.object({
      purchaseId: z.string().min(1),
      signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
    }),
    reads: [],
    changes: ['purchases', 'library', 'menu', 'wallet', 'quote'],
  }),
  /** The connected wallet will not sign it (it refused, ended the session, or did not answer in time). */
  'purchase.abandonSignature': method<{ abandoned: boolean }>()({
    input: z.object({ purchaseId: z.string().min(1) }),
    reads: [],
    changes: ['quote'],
  }),
  'purchases.list': method<PurchasesView>()({
    input: z.object({}),
    reads: ['purchases'],
    changes: [],
  }),
  'purchases.reconcile': method<PurchasesView>()({
    input: z.object({}),
    reads: ['purchases'],
    changes: ['purchases', 'library', 'menu', 'quote'],
  }),
  // Caps and budgets are settings; the totals and charts are the ledger's.
  'purchases.spend': method<SpendView>()({
    input: z.object({ days: z.number().int().min(1).max(366).optional() }),
    reads: ['purchases', 'settings'],
    changes: [],
  }),
  /** A monthly budget for a handle's purchases (token base units), or null to clear it. */
  // A budget changes what a quote warns about.
  'budget.set': method<BudgetView>()({
    input: z.object({
      handle: handleInput,
      monthlyUnits: limitUnits.nullable(),
      /** Needed to raise or clear a budget while a keystore is stored (decision 0022). */
      passphrase: consentPassphrase,
    }),
    reads: [],
    changes: ['settings', 'quote'],
  }),
  // Verification reads the chain, which no event announces: a receipt is asked for again each time it is opened.
  'receipt.get': method<Receipt>()({
    input: z.object({ purchaseId: z.string().min(1).max(200), verify: z.boolean().optional() }),
    reads: ['purchases'],
    changes: [],
  }),
  'receipts.export': method<ExportedFile>()({
    input: z.object({
      purchaseIds: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional(),
      from: isoDayOrTime.optional(),
      to: isoDayOrTime.optional(),
      format: z.enum(['json', 'pdf', 'csv']),
      verify: z.boolean().optional(),
    }),
    reads: [],
    changes: [],
  }),
};
