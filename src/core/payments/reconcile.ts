/**
 * Explains every purchase that did not finish (safety rule 5): a kept answer is delivered, a request that
 * never left is failed, a lost answer from a service that offers payment-identifier is asked for again with
 * the identical payment (once per check, until validBefore: decision 0024), and the chain (authorizationState)
 * or the authorization's expiry decides the rest. What cannot be decided yet stays in doubt and records what
 * it waits for; the next start or refresh asks again. Nothing here ever signs, or sends a new payment.
 */
import type { PublicClient } from 'viem';
import type { PurchaseWait } from '../../shared/rpc';
import { readableDate } from '../../shared/analytics-shape';
import { paidSuccessSchema } from '../../shared/wire';
import type { PurchaseLedger, PurchaseRow } from '../ledger/purchases';
import type { KeptPayments } from '../ledger/kept-payments';
import type { Settlement } from './settle';
import { DESK_CLOCK_EXPIRY_MARGIN_MS, refusalBelievableAt, settledOnChain } from './chain-state';
import { parseWait } from '../ledger/purchases';
import { isDiskFull, keepWhenDiskFull } from './disk-space';
import { encryptedOrLocal } from '../../shared/transport';

export interface ReconcileDeps {
  ledger: PurchaseLedger;
  kept: KeptPayments;
  settlement: Pick<Settlement, 'deliver'>;
  /**
   * Sends an in-doubt purchase's kept payment once more for its lost answer (KeptResender.resend); true when
   * an answer came back. Services in `silentServices` are not asked.
   */
  resendKept: (row: PurchaseRow, silentServices: Set<string>) => Promise<boolean>;
  chain: (network: string) => PublicClient | null;
  /** True while a live process (this one included) is still paying this purchase: it is left to that one. */
  atWork: (purchaseId: string) => boolean;
  /** The RPC URL behind chain(network), for telling the user what is waited for. */
  rpcUrlFor: (network: string) => string | null;
  now: () => number;
}

function deliverKept(row: PurchaseRow, deps: ReconcileDeps): boolean {
  if (!row.response_json) return false;
  let json: unknown;
  try {
    json = JSON.parse(row.response_json);
  } catch {
    return false;
  }
  const parsed = paidSuccessSchema.safeParse(json);
  if (!parsed.success) return false;
  // Delivered, or refused as not what was bought (then held in doubt by deliver): either way decided here.
  // A disk still full holds it in doubt with the answer kept, for the next pass; it never stops the others.
  const text = row.response_json;
  keepWhenDiskFull(deps.ledger, row.id, () => deps.settlement.deliver(row.id, parsed.data, text));
  return true;
}

/** The service's refusal of this purchase's payment, when it gave one after the payment left. */
function refusalOf(row: PurchaseRow): string | null {
  const waiting = parseWait(row.waiting_json);
  return waiting && (waiting.kind === 'expiry' || waiting.kind === 'chain')
    ? (waiting.refusal ?? null)
    : null;
}

/**
 * A refusal with no chain to ask: believed once the desk's clock is well past validBefore, so the purchase
 * fails (true); until then it stays in doubt, and a rebuy is refused.
 */
function failOnRefusal(row: PurchaseRow, deps: ReconcileDeps, closes: string): boolean {
  const refusal = refusalOf(row);
  if (refusal === null || deps.now() <= refusalBelievableAt(row.valid_before)) return false;
  deps.ledger.setState(row.id, 'failed', {
    error: `The service refused the payment (${refusal}), and its authorization closed at ${closes}. No chain could be asked, so the refusal is believed: Intel Desk counts no money as moved.`,
  });
  return true;
}

function shortReason(error: unknown): string {
  const text =
    error instanceof Error ? (error as { shortMessage?: string }).shortMessage || error.message : '';
  return text.split('\n')[0]?.slice(0, 160) || 'no answer';
}

/**
 * Asks the chain about one sent purchase. A chain that failed once in this pass is not asked again (its
 * reason is reused), so many open purchases never multiply the wait for a dead RPC.
 */
async function checkOnChain(
  row: PurchaseRow,
  deps: ReconcileDeps,
  client: PublicClient,
  rpcUrl: string,
  unreachable: Map<string, unknown>,
) {
  const closesAt = new Date(row.valid_before * 1000).toISOString();
  const closes = readableDate(closesAt);
  const chainKey = `${rpcUrl} ${row.network}`;
  let answer: Awaited<ReturnType<typeof settledOnChain>>;
  try {
    if (unreachable.has(chainKey)) throw unreachable.get(chainKey);
    answer = await settledOnChain(row, client);
  } catch (error) {
    unreachable.set(chainKey, error);
    if (failOnRefusal(row, deps, closes)) return;
    const refusal = refusalOf(row);
    const waiting: PurchaseWait = {
      kind: 'chain',
      rpcUrl,
      summary: `Waiting for the chain at ${rpcUrl}.`,
      ...(refusal ? { refusal } : {}),
    };
    deps.ledger.setState(row.id, 'in_doubt', {
      error: `The chain at ${rpcUrl} could not be asked whether this payment settled (${shortReason(error)}). Intel Desk asks again on the next start or refresh and never pays again by itself.`,
      waiting,
    });
    return;
  }
  if (answer.used) {
    deps.ledger.setState(row.id, 'in_doubt', {
      error: `Paid on chain${answer.txHash ? ` (transaction ${answer.txHash})` : ''}, but the reports never arrived. Ask the service to deliver them with this receipt; Intel Desk will not pay again.`,
      txHash: answer.txHash,
      waiting: {
        kind: 'redelivery',
        txHash: answer.txHash,
        summary: 'Waiting for the service to deliver what was paid for.',
      },
    });
  } else if (
    answer.chainSeconds >= row.valid_before ||
    deps.now() > row.valid_before * 1000 + DESK_CLOCK_EXPIRY_MARGIN_MS
  ) {
    deps.ledger.setState(row.id, 'failed', {
      error: `The payment authorization expired unused at ${closes}. No money moved.`,
    });
  } else {
    const refusal = refusalOf(row);
    deps.ledger.setState(row.id, 'in_doubt', {
      error: `Not settled yet; the authorization could still settle until ${closes}. It will be checked again.`,
      waiting: {
        kind: 'expiry',
        until: closesAt,
        summary: `Waiting until ${closes}.`,
        ...(refusal ? { refusal } : {}),
      },
    });
  }
}

/**
 * No chain to ask: none is known for the network, or the one chosen (`refusedRpc`) is plain http to another
 * host, whose word is not taken (decision 0040).
 */
function explainWithoutChain(row: PurchaseRow, deps: ReconcileDeps, refusedRpc: string | null): void {
  const closesAt = new Date(row.valid_before * 1000).toISOString();
  const closes = readableDate(closesAt);
  if (failOnRefusal(row, deps, closes)) return;
  const refusal = refusalOf(row);
  if (refusal !== null) {
    const believable = readableDate(new Date(refusalBelievableAt(row.valid_before)).toISOString());
    deps.ledger.setState(row.id, 'in_doubt', {
      error: `The service refused the payment (${refusal}), but no chain can be asked whether money moved. Intel Desk believes the refusal after ${believable}, when the authorization has surely closed.`,
      waiting: { kind: 'expiry', until: closesAt, summary: `Waiting until ${believable}.`, refusal },
    });
    return;
  }
  if (deps.now() <= row.valid_before * 1000) {
    deps.ledger.setState(row.id, 'in_doubt', {
      error: `The answer was lost; without chain access Intel Desk waits until ${closes}, after which no charge can happen.`,
      waiting: { kind: 'expiry', until: closesAt, summary: `Waiting until ${closes}.` },
    });
    return;
  }
  const insecure = refusedRpc
    ? ` The chain RPC ${refusedRpc} is plain http to another host, so it is not asked: choose an https one in Settings.`
    : '';
  deps.ledger.setState(row.id, 'in_doubt', {
    error: `The authorization closed at ${closes}, so no further charge can happen, but without chain access Intel Desk cannot tell whether it settled before then.${insecure}`,
    waiting: {
      kind: 'chain_access',
      summary: `Closed at ${closes}; waiting for ${refusedRpc ? 'an https chain RPC' : 'a chain RPC URL'} to tell whether it settled.`,
    },
  });
}

const UNSETTLED: ReadonlySet<string> = new Set(['signed', 'sent', 'in_doubt']);

export async function reconcilePurchases(deps: ReconcileDeps): Promise<void> {
  const unreachable = new Map<string, unknown>();
  const silentServices = new Set<string>();
  // A payment whose authorization closed can neither pay nor fetch anything: none is kept past validBefore.
  deps.kept.forgetExpired();
  for (const listed of deps.ledger.unsettled()) {
    // Read again at its turn: the checks before it waited on the chain, and meanwhile another process on this
    // folder may have sent, paid and finished the purchase the list still shows as just signed.
    const row = deps.ledger.get(listed.id);
    if (!row || !UNSETTLED.has(row.state) || deps.atWork(row.id)) continue;
    try {
      await reconcileOne(row, deps, unreachable, silentServices);
    } catch (error) {
      // A full disk must not stop the desk from starting: the row stays as it was (its answer, if any, kept)
      // and the next pass, with room again, explains it.
      if (!isDiskFull(error)) throw error;
    }
  }
}

async function reconcileOne(
  row: PurchaseRow,
  deps: ReconcileDeps,
  unreachable: Map<string, unknown>,
  silentServices: Set<string>,
) {
  deps.ledger.markChecked(row.id);
  if (deliverKept(row, deps)) return;
  if (row.state === 'signed') {
    deps.ledger.setState(row.id, 'failed', {
      error: 'Intel Desk stopped before the payment was sent. No money moved.',
    });
    return;
  }
  if (await deps.resendKept(row, silentServices)) return;
  const client = deps.chain(row.network);
  const rpcUrl = deps.rpcUrlFor(row.network);
  if (client && rpcUrl) await checkOnChain(row, deps, client, rpcUrl, unreachable);
  else explainWithoutChain(row, deps, rpcUrl !== null && !encryptedOrLocal(rpcUrl) ? rpcUrl : null);
}
