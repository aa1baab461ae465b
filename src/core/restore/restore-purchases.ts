/**
 * Restore purchases: the wallet signs in to its service with x (SIWx) and downloads again, free, every purchase
 * it settled there, page by page. A proof lasts the few minutes the service allows; a later page that finds it
 * expired asks for one more signature, and a proof refused at once ends the restore with the service's reason.
 * Resumable between signatures, so a wallet in the window (which signs in the renderer) takes part too.
 */
import type { RawAnswer } from '../client/http';
import { parseJson, serviceError } from '../client/http';
import { PURCHASES_PATH, type ServiceClient } from '../client/service-client';
import { DeskError } from '../base/errors';
import type { RestoreSummary } from '../../shared/rpc';
import {
  applyRestored,
  purchasesPageSchema,
  restoredPurchaseSchema,
  type ChainConfirmation,
  type RestoreDeps,
  type RestoredPurchase,
} from './restored-purchase';
import { confirmOnChain, restoredPurchaseRefusal } from './restore-checks';
import { restoredUnconfirmed } from '../ledger/restored';
import { signInHeader, signInRefusal, signInRequest, type SignInRequest } from './sign-in';

const MAX_LISTED = 20;
/** Purchases whose payments are looked up on chain at once. */
const CHAIN_CHECKS_AT_ONCE = 8;

export class PurchaseRestore {
  private after = 0;
  private header: string | null = null;
  private pending: SignInRequest | null = null;
  /** True between a new signature and the first answer to it: a 402 then is a refusal, not an expiry. */
  private freshProof = false;
  private readonly summary: RestoreSummary;

  constructor(
    private readonly client: ServiceClient,
    private readonly deps: RestoreDeps,
    readonly address: `0x${string}`,
    private readonly onProgress: (summary: RestoreSummary) => void = () => {},
  ) {
    this.summary = {
      serviceUrl: client.baseUrl,
      address,
      purchases: 0,
      restoredPurchases: 0,
      reports: 0,
      alreadyHeld: 0,
      notOnChain: 0,
      differsFromReceipt: 0,
      refused: 0,
      problems: [],
    };
  }

  private get requestUrl(): string {
    return `${this.client.baseUrl}${PURCHASES_PATH}`;
  }

  /** The first challenge to sign; throws restore_unsupported when the service offers no sign-in. */
  async begin(signal?: AbortSignal): Promise<SignInRequest> {
    const request = await this.pages(signal);
    if (request === null) throw new DeskError('internal', 'The service listed purchases before sign-in.');
    return request;
  }

  /** Goes on with the signature over the pending challenge: the next challenge to sign, or null when done. */
  async signed(signature: `0x${string}`, signal?: AbortSignal): Promise<SignInRequest | null> {
    if (!this.pending) throw new DeskError('restore_not_started', 'No sign-in is waiting for a signature.');
    this.header = signInHeader(this.pending, signature);
    this.pending = null;
    this.freshProof = true;
    return this.pages(signal);
  }

  result(): RestoreSummary {
    return structuredClone(this.summary);
  }

  private unsupported(detail: string): DeskError {
    return new DeskError(
      'restore_unsupported',
      `The service at ${this.client.baseUrl} does not offer restoring purchases with sign-in-with-x (${detail}). Reports bought there can come back only from a backup of the library.`,
      'service',
    );
  }

  private async pages(signal?: AbortSignal): Promise<SignInRequest | null> {
    for (;;) {
      const answer = await this.client.purchasesPage(this.after, this.header, signal);
      if (answer.status === 402) return this.challenge(answer);
      if (answer.status === 404 || answer.status === 405) throw this.unsupported(`HTTP ${answer.status}`);
      if (answer.status !== 200) throw serviceError(answer);
      this.freshProof = false;
      const page = parseJson(answer, purchasesPageSchema, 'list of purchases');
      if (page.payer.toLowerCase() !== this.address.toLowerCase()) {
        throw new DeskError(
          'restore_other_wallet',
          `The service listed the purchases of ${page.payer}, not of this wallet (${this.address}). Nothing more was stored.`,
          'service',
        );
      }
      for (let i = 0; i < page.purchases.length; i += CHAIN_CHECKS_AT_ONCE) {
        const batch = page.purchases.slice(i, i + CHAIN_CHECKS_AT_ONCE);
        const checked = await Promise.all(batch.map((raw) => this.check(raw)));
        for (const purchase of checked) {
          this.summary.purchases++;
          if ('refusal' in purchase) this.refuse(purchase.transaction, purchase.refusal);
          else this.apply(purchase.data, purchase.confirmation);
        }
      }
      this.onProgress(this.result());
      if (page.next === null) return null;
      if (page.next <= this.after) {
        throw new DeskError(
          'service_malformed',
          'The service sent the same page of purchases again.',
          'service',
        );
      }
      this.after = page.next;
    }
  }

  private challenge(answer: RawAnswer): SignInRequest {
    if (this.freshProof) {
      const reason = signInRefusal(answer) ?? 'no reason given';
      throw new DeskError(
        'sign_in_refused',
        `The service did not accept the wallet's sign-in (${reason}). Nothing more was restored.`,
        'service',
        { reason },
      );
    }
    const request = signInRequest(answer, this.requestUrl, this.address);
    if (!request) throw this.unsupported('its answer offers no sign-in-with-x challenge');
    this.header = null;
    this.pending = request;
    return request;
  }

  /**
   * A listed purchase read and bounded, and what the chain says of it; or why it is refused. Counts nothing:
   * the checks of a batch run at once, and their outcomes are counted in the order the service listed them.
   */
  private async check(
    raw: unknown,
  ): Promise<
    { data: RestoredPurchase; confirmation: ChainConfirmation } | { transaction: string; refusal: string }
  > {
    const parsed = restoredPurchaseSchema.safeParse(raw);
    if (!parsed.success)
      return { transaction: 'unknown', refusal: 'the service described it in a shape the desk cannot read' };
    const { data } = parsed;
    const refusal = restoredPurchaseRefusal(data, this.deps.now());
    if (refusal !== null) return { transaction: data.transaction, refusal };
    // Asked only when it decides something: a purchase the library lacks, or one restored unconfirmed before.
    const held = this.deps.ledger.byAuthorization(this.address, data.nonce);
    if (held && !restoredUnconfirmed(held)) return { data, confirmation: { onChain: false } };
    const chain = await confirmOnChain(this.deps.chain, this.address, data);
    if (!('contradicted' in chain)) return { data, confirmation: chain };
    // One restored before on the service's word stays as it is; a new one is not stored.
    if (held) return { data, confirmation: { onChain: false } };
    return { transaction: data.transaction, refusal: chain.contradicted };
  }

  private apply(purchase: RestoredPurchase, confirmation: ChainConfirmation): void {
    const outcome = applyRestored(this.deps, this.client.baseUrl, this.address, purchase, confirmation);
    if (outcome.kind === 'restored') {
      this.summary.restoredPurchases++;
      this.summary.reports += outcome.reports;
      if (!outcome.onChain) this.summary.notOnChain++;
    } else if (outcome.kind === 'already_held') this.summary.alreadyHeld++;
    else if (outcome.kind === 'differs_from_receipt') {
      this.summary.differsFromReceipt++;
      this.problem(
        purchase.transaction,
        `report(s) ${outcome.ids.slice(0, 5).join(', ')} differ from the receipt's SHA-256; not stored`,
      );
    } else this.refuse(purchase.transaction, outcome.reason);
  }

  private refuse(transaction: string, reason: string): void {
    this.summary.refused++;
    this.problem(transaction, reason);
  }

  private problem(transaction: string, reason: string): void {
    if (this.summary.problems.length < MAX_LISTED) this.summary.problems.push({ transaction, reason });
  }
}

/** The whole restore with a signer at hand (a key in core): signs each challenge as it comes. */
export async function restoreWithKey(
  restore: PurchaseRestore,
  signMessage: (message: string) => Promise<`0x${string}`>,
  signal?: AbortSignal,
): Promise<RestoreSummary> {
  let request: SignInRequest | null = await restore.begin(signal);
  while (request) request = await restore.signed(await signMessage(request.message), signal);
  return restore.result();
}
