/**
 * Consent only the person can give (decision 0022): while a keystore is stored, raising the per-purchase or
 * daily cap, raising or clearing a handle's budget, and going over any of them with a payment the keystore
 * signs each need its passphrase, checked by unsealing wallet.json again even when the wallet is unlocked.
 * Lowering, and setting a budget where there was none, need nothing: they only narrow what can be spent.
 * The passphrase travels into core and is never kept or sent back.
 */
import type { PurchaseRequest } from './purchaser';
import type { DeskWallet } from '../wallet/wallet';
import type { SettingsStore } from '../settings/settings';
import type { HandleBudgets } from '../ledger/budgets';
import type { LibrarySecret } from '../library/library-secret';
import type { QuoteBook } from './quote-book';
import type { Spending } from './spending';
import type { SettingsPatch } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import { judgePayment } from './policy';

/** What consent reads: the wallet that checks the passphrase, and what a change or a payment is judged against. */
export interface ConsentDeps {
  readonly wallet: Pick<DeskWallet, 'confirmPassphrase' | 'hasKeystore' | 'signsWithKeystore'>;
  readonly settings: Pick<SettingsStore, 'get'>;
  readonly budgets: Pick<HandleBudgets, 'get'>;
  readonly quotes: Pick<QuoteBook, 'get'>;
  readonly spending: Pick<Spending, 'paymentFacts'>;
  readonly librarySecret: Pick<LibrarySecret, 'current'>;
}

async function confirm(ctx: ConsentDeps, passphrase: string | undefined, what: string, nothing: string) {
  if (passphrase === undefined || passphrase === '')
    throw new DeskError(
      'passphrase_required',
      `${what} needs the wallet's passphrase, typed by you; ${nothing}. Type it to confirm.`,
      'wallet',
    );
  await ctx.wallet.confirmPassphrase(passphrase);
}

/** Settings: raising either cap. */
export async function consentToCaps(
  ctx: ConsentDeps,
  patch: Pick<SettingsPatch, 'perPurchaseCapUnits' | 'dailyCapUnits'>,
  passphrase: string | undefined,
): Promise<void> {
  if (!ctx.wallet.hasKeystore()) return;
  const current = ctx.settings.get();
  const raised: string[] = [];
  if (
    patch.perPurchaseCapUnits !== undefined &&
    BigInt(patch.perPurchaseCapUnits) > BigInt(current.perPurchaseCapUnits)
  )
    raised.push('the per-purchase cap');
  if (patch.dailyCapUnits !== undefined && BigInt(patch.dailyCapUnits) > BigInt(current.dailyCapUnits))
    raised.push('the daily cap');
  if (raised.length === 0) return;
  await confirm(ctx, passphrase, `Raising ${raised.join(' and ')}`, 'no setting was changed');
}

/** A handle's budget: raising it, or clearing one (no budget is no limit). */
export async function consentToBudget(
  ctx: ConsentDeps,
  handle: string,
  monthly: bigint | null,
  passphrase: string | undefined,
): Promise<void> {
  if (!ctx.wallet.hasKeystore()) return;
  const current = ctx.budgets.get(handle);
  if (current === null || (monthly !== null && monthly <= current)) return;
  const what = monthly === null ? `Clearing the budget of @${handle}` : `Raising the budget of @${handle}`;
  await confirm(ctx, passphrase, what, 'the budget was not changed');
}

/**
 * purchase.start's consent to go over a cap or a budget: asked only of a payment the keystore signs that is
 * over one now. One that is not over drops the flag, so a cap reached meanwhile still stops it.
 */
export async function consentToOverCap(
  ctx: ConsentDeps,
  request: PurchaseRequest & { passphrase?: string | undefined },
): Promise<PurchaseRequest> {
  const { passphrase, ...rest } = request;
  if (!rest.acceptOverCap) return rest;
  const held = ctx.quotes.get(rest.quoteId);
  // An unknown quote is refused by purchase.start itself, in its own words.
  if (!held) return rest;
  const paidWith = rest.paidWith ?? (ctx.librarySecret.current() === null ? 'payment' : 'library_secret');
  if (paidWith !== 'payment') return { ...rest, acceptOverCap: false };
  const verdict = judgePayment(ctx.spending.paymentFacts(held, held.serviceUrl));
  if (!verdict.overPurchaseCap && !verdict.overDailyCap && !verdict.overHandleBudget)
    return { ...rest, acceptOverCap: false };
  if (ctx.wallet.signsWithKeystore())
    await confirm(ctx, passphrase, 'Going over a cap or a budget', 'nothing was signed or paid');
  return rest;
}
