/**
 * The x402 `payment-identifier` extension as the ledger reads it: the id a sealed payment carries, by which a
 * kept payment is sent again (decision 0024). Signing one in (payments/authorization.ts) writes the same key.
 */
import { z } from 'zod';
import type { PaymentPayload } from '@x402/core/types';

/** The extension's key in `extensions` (the SDK's PAYMENT_IDENTIFIER; a test holds them equal). */
export const PAYMENT_IDENTIFIER_KEY = 'payment-identifier';

const sentPaymentIdSchema = z.looseObject({
  [PAYMENT_IDENTIFIER_KEY]: z.looseObject({ info: z.looseObject({ id: z.string() }) }),
});

/** The payment id a payload carries, or null. */
export function paymentIdOf(payment: PaymentPayload): string | null {
  const parsed = sentPaymentIdSchema.safeParse(payment.extensions);
  return parsed.success ? parsed.data[PAYMENT_IDENTIFIER_KEY].info.id : null;
}
