/**
 * The payment rules a person set (payment safety rules 2 and 3, docs/ARCHITECTURE.md): the per-purchase and
 * daily caps, the handle's monthly budget, and the payee pinned at the first purchase from a service. The quote
 * shows what they would say and purchase.start enforces it, both on the same facts (spending.ts, payments
 * being signed included), so the two can never disagree.
 */
import { formatUnitsUsd } from '../../shared/money';
import type { BudgetDetails, CapDetails, PayeeChangedDetails } from '../../shared/rpc-errors';
import { refused } from '../base/errors';

/** The caps as settings keep them: token base units, decimal strings. */
export interface Caps {
  perPurchaseCapUnits: string;
  dailyCapUnits: string;
}

export type PayeeStatus = 'new' | 'pinned' | 'changed';

/** 'new' before the first purchase from the service, then whether the payee is still the pinned one. */
export function payeeStatus(pinned: string | null, payTo: string): PayeeStatus {
  if (pinned === null) return 'new';
  return pinned.toLowerCase() === payTo.toLowerCase() ? 'pinned' : 'changed';
}

/** Everything the rules look at for one payment. */
export interface PaymentFacts {
  amount: bigint;
  payTo: string;
  pinnedPayTo: string | null;
  caps: Caps;
  /** What already counts against today's cap (spending.ts). */
  spent: bigint;
  /** The handle paid for, its monthly budget if it has one, and what it committed this month (as `spent`). */
  handle: { name: string; budget: bigint | null; spentThisMonth: bigint };
}

export interface PaymentVerdict {
  payToStatus: PayeeStatus;
  overPurchaseCap: boolean;
  overDailyCap: boolean;
  overHandleBudget: boolean;
  perPurchaseCap: bigint;
  dailyCap: bigint;
}

export function judgePayment(facts: PaymentFacts): PaymentVerdict {
  const perPurchaseCap = BigInt(facts.caps.perPurchaseCapUnits);
  const dailyCap = BigInt(facts.caps.dailyCapUnits);
  return {
    payToStatus: payeeStatus(facts.pinnedPayTo, facts.payTo),
    overPurchaseCap: facts.amount > perPurchaseCap,
    overDailyCap: facts.spent + facts.amount > dailyCap,
    overHandleBudget:
      facts.handle.budget !== null && facts.handle.spentThisMonth + facts.amount > facts.handle.budget,
    perPurchaseCap,
    dailyCap,
  };
}

/** What the person agreed to when starting the purchase. */
export interface Consent {
  confirmedAmount: string;
  acceptOverCap?: boolean | undefined;
  acceptPayToChange?: boolean | undefined;
}

/** Refuses a payment the rules do not allow, with the details the UI needs to ask for consent once. */
export function enforcePayment(facts: PaymentFacts, consent: Consent): void {
  if (consent.confirmedAmount !== facts.amount.toString()) {
    throw refused(
      'amount_not_confirmed',
      `You confirmed ${formatUnitsUsd(BigInt(consent.confirmedAmount))} but the payment would be ${formatUnitsUsd(facts.amount)}; nothing was signed.`,
    );
  }
  const verdict = judgePayment(facts);
  if (!consent.acceptOverCap) {
    const amounts = { amount: facts.amount.toString(), spent: facts.spent.toString() };
    if (verdict.overPurchaseCap) {
      const details: CapDetails = { cap: verdict.perPurchaseCap.toString(), ...amounts };
      throw refused(
        'over_purchase_cap',
        `${formatUnitsUsd(facts.amount)} is above your per-purchase cap of ${formatUnitsUsd(verdict.perPurchaseCap)}; confirm again to go over it.`,
        details,
      );
    }
    if (verdict.overDailyCap) {
      const details: CapDetails = { cap: verdict.dailyCap.toString(), ...amounts };
      throw refused(
        'over_daily_cap',
        `With ${formatUnitsUsd(facts.spent)} already spent today, ${formatUnitsUsd(facts.amount)} more goes over your daily cap of ${formatUnitsUsd(verdict.dailyCap)}; confirm again to go over it.`,
        details,
      );
    }
    const { handle } = facts;
    if (verdict.overHandleBudget && handle.budget !== null) {
      const details: BudgetDetails = {
        cap: handle.budget.toString(),
        amount: facts.amount.toString(),
        spent: handle.spentThisMonth.toString(),
        handle: handle.name,
      };
      throw refused(
        'over_handle_budget',
        `With ${formatUnitsUsd(handle.spentThisMonth)} already spent on @${handle.name} this month, ${formatUnitsUsd(facts.amount)} more goes over its monthly budget of ${formatUnitsUsd(handle.budget)}; confirm again to go over it.`,
        details,
      );
    }
  }
  if (verdict.payToStatus === 'changed' && facts.pinnedPayTo !== null && !consent.acceptPayToChange) {
    const details: PayeeChangedDetails = { pinned: facts.pinnedPayTo, payTo: facts.payTo };
    throw refused(
      'payee_changed',
      `This service used to be paid at ${facts.pinnedPayTo} and now asks for ${facts.payTo}; accept the new payee to continue.`,
      details,
    );
  }
}
