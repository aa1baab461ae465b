/**
 * budget.set: a handle's monthly budget, with the person's consent to raising or clearing one (consent.ts),
 * and checked against the service's shelf when it is new.
 */
import type { RpcOutputs } from '../../shared/rpc';
import { handleKey } from '../../shared/handle-key';
import { DeskError } from '../base/errors';
import { normalizeHandle } from '../client/service-client';
import type { CatalogService } from '../catalog/catalog-service';
import { offlineReason } from '../catalog/offline';
import type { HandleBudgets } from '../ledger/budgets';
import { consentToBudget, type ConsentDeps } from './consent';

export interface BudgetSettingDeps extends ConsentDeps {
  readonly budgets: Pick<HandleBudgets, 'get' | 'list' | 'set'>;
  readonly catalogService: Pick<CatalogService, 'shelf'>;
}

/**
 * A new budget must name a handle the service lists, on its live shelf or, offline, on the copy kept from the
 * last fetch: a typo would otherwise be a budget that never applies while the person believes it does. With
 * no answer and no copy nothing can be checked, and a limit is never refused for that: it is kept, and
 * `unchecked` says why. Changing a budget the desk already holds needs no check.
 */
async function uncheckedBudgetHandle(deps: BudgetSettingDeps, name: string): Promise<string | undefined> {
  const key = handleKey(name);
  if (deps.budgets.list().some((budget) => handleKey(budget.handle) === key)) return undefined;
  let shelf;
  try {
    shelf = await deps.catalogService.shelf();
  } catch (error) {
    const reason = offlineReason(error);
    if (reason === null) throw error;
    return `the service did not answer and no copy of its shelf is saved (${reason})`;
  }
  if (!shelf.configured) return 'the service keeps no shelf of handles';
  if (shelf.entries.some((entry) => handleKey(entry.username) === key)) return undefined;
  const which = shelf.stale
    ? `The copy of the service's shelf saved at ${shelf.fetchedAt?.slice(0, 16).replace('T', ' ') ?? 'an earlier run'} UTC (the service did not answer)`
    : "The service's shelf";
  throw new DeskError(
    'budget_unknown_handle',
    `${which} lists no handle @${name}, so no budget was set. Check the spelling against the Shelf.`,
    'usage',
    { handle: name },
  );
}

export async function setBudget(
  deps: BudgetSettingDeps,
  handle: string,
  monthlyUnits: string | null,
  passphrase: string | undefined,
): Promise<RpcOutputs['budget.set']> {
  const name = normalizeHandle(handle);
  const monthly = monthlyUnits === null ? null : BigInt(monthlyUnits);
  await consentToBudget(deps, name, monthly, passphrase);
  const unchecked = monthlyUnits === null ? undefined : await uncheckedBudgetHandle(deps, name);
  deps.budgets.set(name, monthly);
  return { handle: name, monthlyUnits, ...(unchecked === undefined ? {} : { unchecked }) };
}
