/**
 * Verifies and settles an EIP-3009 payment for one paid request. Checks the service can name precisely come
 * first (network, asset, payee, amount, window, nonce); the official x402 facilitator scheme then verifies the
 * signature and simulates the transfer, and settles it on chain.
 */
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { getAddress, isAddressEqual, parseAbi, type Address } from 'viem';
import type { ChainClients } from '../chain/token';
import type { PaymentRequirement } from '../../shared/wire';
import type { DecodedPayment } from './decode';
import { baseUnitsToUsd, MAX_TIMEOUT_SECONDS, type PaymentTerms } from './challenge';
import type { NonceBook } from './nonces';

export type PaymentFailure =
  | {
      status: 402;
      error: string;
      message: string;
      requiredUsd?: number;
      paidUsd?: number;
      /** The settlement transaction, when one was broadcast: the payer's evidence to check on chain. */
      transaction?: string;
    }
  | { status: 409; error: 'payment_already_used'; message: string };

export type PaymentOutcome =
  | { ok: true; transaction: `0x${string}`; payer: Address; amount: bigint }
  | { ok: false; failure: PaymentFailure };

/**
 * Seconds an authorization must still be valid for, so it cannot expire while settling: more than the official
 * facilitator's own margin (6 s), since a settlement on a real chain takes a block or two.
 */
const SETTLEMENT_MARGIN_SECONDS = 8;

/**
 * Seconds past maxTimeoutSeconds a validBefore may reach: a payer dating its window by a clock a little ahead
 * of this one (or by the chain's) is still served, and an authorization that stays spendable for years is not.
 */
export const VALID_BEFORE_MARGIN_SECONDS = 30;

/** Structural equality of two JSON values, whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((value, i) => sameJson(value, b[i]));
  const left = Object.entries(a).filter(([, value]) => value !== undefined);
  const right = new Map(Object.entries(b).filter(([, value]) => value !== undefined));
  return (
    left.length === right.size &&
    left.every(([key, value]) => right.has(key) && sameJson(value, right.get(key)))
  );
}

/** The x402 facilitator's reason for a transaction sent whose receipt could not be had. */
const SETTLEMENT_PENDING = 'settlement_pending';

const TOKEN_ABI = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

const facilitatorReasons: Record<string, { error: string; message: string }> = {
  invalid_exact_evm_signature: {
    error: 'invalid_signature',
    message: 'the payment signature does not match the payer',
  },
  invalid_exact_evm_failed_to_parse_signature: {
    error: 'invalid_signature',
    message: 'the payment signature is malformed',
  },
  invalid_exact_evm_insufficient_balance: {
    error: 'insufficient_balance',
    message: "the payer's USDC balance is below the amount",
  },
  invalid_exact_evm_nonce_already_used: {
    error: 'payment_already_used',
    message: 'this authorization nonce was already used on chain',
  },
  invalid_exact_evm_recipient_mismatch: {
    error: 'payee_mismatch',
    message: 'the authorization pays someone other than this service',
  },
  invalid_exact_evm_token_name_mismatch: {
    error: 'invalid_signature',
    message: 'the signature was made for another token domain name',
  },
  invalid_exact_evm_token_version_mismatch: {
    error: 'invalid_signature',
    message: 'the signature was made for another token domain version',
  },
};

function fail(error: string, message: string, extra: Partial<PaymentFailure> = {}): PaymentOutcome {
  if (error === 'payment_already_used') return { ok: false, failure: { status: 409, error, message } };
  return { ok: false, failure: { status: 402, error, message, ...extra } as PaymentFailure };
}

/**
 * Runs tasks one at a time, in order. Every settlement is sent from the one facilitator account: sending them
 * concurrently hands out account nonces ahead of the sends, so one failed send leaves a gap that strands the
 * transactions behind it, and the nonce manager's reset then hands out nonces twice. Sending one transaction at a
 * time (each takes a few milliseconds on loopback) and waiting for receipts concurrently avoids both.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * The official facilitator's signer over one account's viem clients: reads as they come, transactions one at
 * a time through `sends`, receipts polled often (a local chain mines at once).
 */
export function facilitatorSigner(clients: ChainClients, sends: SerialQueue, confirmationTimeoutMs: number) {
  const { publicClient, walletClient } = clients;
  return toFacilitatorEvmSigner(
    {
      address: walletClient.account.address,
      readContract: (args) =>
        publicClient.readContract(args as Parameters<typeof publicClient.readContract>[0]),
      verifyTypedData: (args) =>
        publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
      writeContract: (args) =>
        sends.run(() => walletClient.writeContract(args as Parameters<typeof walletClient.writeContract>[0])),
      sendTransaction: (args) => sends.run(() => walletClient.sendTransaction(args)),
      waitForTransactionReceipt: (args) =>
        publicClient.waitForTransactionReceipt({ ...args, pollingInterval: 50 }),
      getCode: (args) => publicClient.getCode(args),
    },
    { confirmationTimeoutMs },
  );
}

export class PaymentVerifier {
  private readonly scheme: ExactEvmScheme;
  private readonly sends = new SerialQueue();

  constructor(
    private readonly terms: PaymentTerms,
    private readonly clients: ChainClients,
    private readonly nonces: NonceBook,
    private readonly now: () => number = () => Date.now(),
  ) {
    const signer = facilitatorSigner(clients, this.sends, 60_000);
    this.scheme = new ExactEvmScheme(signer);
  }

  private networkMatches(payment: DecodedPayment): boolean {
    if (payment.network === this.terms.network) return true;
    // A v1 client names the chain; the service's settlement chain answers to "base" (the spec's network).
    return payment.x402Version === 1 && payment.network === 'base';
  }

  /** The facilitator's own diagnosis needs multicall, which a bare local chain lacks; read the causes directly. */
  private async diagnose(
    from: Address,
    nonce: `0x${string}`,
    value: bigint,
  ): Promise<{ error: string; message: string } | null> {
    const asset = getAddress(this.terms.asset);
    const { publicClient } = this.clients;
    const used = await publicClient.readContract({
      address: asset,
      abi: TOKEN_ABI,
      functionName: 'authorizationState',
      args: [from, nonce],
    });
    if (used) return facilitatorReasons['invalid_exact_evm_nonce_already_used'] ?? null;
    const balance = await publicClient.readContract({
      address: asset,
      abi: TOKEN_ABI,
      functionName: 'balanceOf',
      args: [from],
    });
    if (balance < value) return facilitatorReasons['invalid_exact_evm_insufficient_balance'] ?? null;
    return null;
  }

  async settle(
    payment: DecodedPayment,
    requirement: PaymentRequirement,
    resource: string,
  ): Promise<PaymentOutcome> {
    const auth = payment.authorization;
    if (payment.scheme !== 'exact')
      return fail('unsupported_scheme', `scheme "${payment.scheme}" is not supported; use "exact"`);
    if (!this.networkMatches(payment)) {
      return fail(
        'network_mismatch',
        `payment is for network ${payment.network}; this service settles on ${this.terms.network}`,
      );
    }
    if (payment.accepted) {
      const asset = payment.accepted['asset'];
      if (typeof asset !== 'string' || asset.toLowerCase() !== this.terms.asset.toLowerCase()) {
        return fail(
          'asset_mismatch',
          `payment is in asset ${String(asset)}; this service accepts ${this.terms.asset}`,
        );
      }
    }
    let from: Address;
    let to: Address;
    try {
      from = getAddress(auth.from);
      to = getAddress(auth.to);
    } catch {
      return fail('invalid_payment_payload', 'authorization from/to is not an address');
    }
    if (!isAddressEqual(to, getAddress(this.terms.payTo))) {
      return fail('payee_mismatch', `the authorization pays ${to}, not this service (${this.terms.payTo})`);
    }
    const value = BigInt(auth.value);
    const required = BigInt(requirement.amount);
    if (value < required) {
      return fail(
        'insufficient_payment',
        `payment of ${auth.value} is below the price of ${requirement.amount}`,
        {
          requiredUsd: baseUnitsToUsd(required),
          paidUsd: baseUnitsToUsd(value),
        },
      );
    }
    if (value > required) {
      return fail(
        'amount_mismatch',
        `payment of ${auth.value} is above the price of ${requirement.amount}; pay the exact amount`,
      );
    }
    const nowSeconds = BigInt(Math.floor(this.now() / 1000));
    if (BigInt(auth.validAfter) > nowSeconds) {
      return fail('authorization_not_yet_valid', `the authorization is valid only after ${auth.validAfter}`);
    }
    if (BigInt(auth.validBefore) < nowSeconds + BigInt(SETTLEMENT_MARGIN_SECONDS)) {
      return fail('authorization_expired', `the authorization expired at ${auth.validBefore}`);
    }
    const timeout = requirement.maxTimeoutSeconds ?? MAX_TIMEOUT_SECONDS;
    const latest = nowSeconds + BigInt(timeout + VALID_BEFORE_MARGIN_SECONDS);
    if (BigInt(auth.validBefore) > latest) {
      return fail(
        'authorization_too_long',
        `the authorization is valid until ${auth.validBefore}, ${BigInt(auth.validBefore) - nowSeconds} s from now; this service accepts at most ${timeout} s (maxTimeoutSeconds) plus ${VALID_BEFORE_MARGIN_SECONDS} s for clock differences`,
      );
    }
    if (!/^0x[0-9a-fA-F]{64}$/.test(auth.nonce))
      return fail('invalid_payment_payload', 'the nonce must be 32 bytes');
    // A v2 payer echoes the terms it accepted: they must be exactly the ones offered for this request.
    if (payment.accepted && !sameJson(payment.accepted, requirement)) {
      return fail(
        'accepted_mismatch',
        'the payment accepts terms other than the ones offered for this request; echo accepts[0] of the 402 challenge unchanged',
      );
    }

    // Reserve before any chain call: two requests carrying one nonce can never both settle.
    if (!this.nonces.reserve(from, auth.nonce, auth.value, resource)) {
      return fail('payment_already_used', 'this payment nonce was already used');
    }
    const x402Payload: PaymentPayload = {
      x402Version: 2,
      accepted: requirement as PaymentRequirements,
      payload: { signature: payment.signature, authorization: { ...auth } },
    } as PaymentPayload;
    try {
      const verified = await this.scheme.verify(x402Payload, requirement as PaymentRequirements);
      if (!verified.isValid) {
        this.nonces.release(from, auth.nonce);
        const reason = facilitatorReasons[verified.invalidReason ?? ''] ??
          (await this.diagnose(from, auth.nonce as `0x${string}`, value)) ?? {
            error: 'payment_rejected',
            message: `the payment was rejected (${verified.invalidReason ?? 'unknown reason'})`,
          };
        return fail(reason.error, reason.message);
      }
      const settled = await this.scheme.settle(x402Payload, requirement as PaymentRequirements);
      if (settled.success && settled.transaction) {
        this.nonces.markSettled(from, auth.nonce, settled.transaction);
        return { ok: true, transaction: settled.transaction as `0x${string}`, payer: from, amount: value };
      }
      const reason = settled.errorReason ?? 'unknown reason';
      if (settled.transaction && reason === SETTLEMENT_PENDING) {
        // Broadcast but not confirmed: it may still settle, so the nonce stays taken and a resend gets 409.
        this.nonces.markBroadcast(from, auth.nonce, settled.transaction);
        return fail(
          'settlement_failed',
          `the settlement was broadcast in transaction ${settled.transaction} but not confirmed; it may still settle, so this payment cannot be used again`,
          { transaction: settled.transaction },
        );
      }
      // Nothing was broadcast, or the transaction reverted: the authorization is unused and the payer may retry.
      this.nonces.release(from, auth.nonce);
      return fail(
        'settlement_failed',
        `settlement failed (${reason})`,
        settled.transaction ? { transaction: settled.transaction } : {},
      );
    } catch (error) {
      this.nonces.release(from, auth.nonce);
      throw error;
    }
  }
}
