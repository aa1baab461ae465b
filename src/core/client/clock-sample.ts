/**
 * Another clock against the desk's, read from one round trip: the service's from an answer's Date header (the
 * client takes one with every answer), the chain's from a block (payments/chain-clock.ts). Payment safety rule 7
 * dates an authorization by these.
 */
import { z } from 'zod';

export type ClockSource = 'service' | 'chain';

/** Where another clock stood against the desk's: its time minus the desk's lies in [lowMs, highMs]. */
export interface ClockSample {
  source: ClockSource;
  lowMs: number;
  highMs: number;
}

/**
 * A reading in whole seconds taken by a request sent at sentAt and answered at receivedAt (desk clock, ms):
 * the source's clock showed between `seconds` and `seconds + 1` at some moment of that round trip.
 */
export function sampleFromSeconds(
  source: ClockSource,
  seconds: number,
  sentAt: number,
  receivedAt: number,
): ClockSample {
  return { source, lowMs: seconds * 1000 - receivedAt, highMs: (seconds + 1) * 1000 - sentAt };
}

// RFC 9110's IMF-fixdate, the only form a current server may send ("Sun, 06 Nov 1994 08:49:37 GMT").
const httpDateSchema = z
  .string()
  .regex(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
  .transform((value) => Date.parse(value))
  .refine((ms) => Number.isFinite(ms));

const ageSchema = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

/**
 * The service's clock from an answer's `Date` header, plus its `Age` when a cache on the way kept the answer
 * (Date is when the origin made it); null when the header is missing or not a date.
 */
export function serviceSample(headers: Headers, sentAt: number, receivedAt: number): ClockSample | null {
  const date = httpDateSchema.safeParse(headers.get('date'));
  if (!date.success) return null;
  const age = ageSchema.safeParse(headers.get('age'));
  return sampleFromSeconds('service', date.data / 1000 + (age.success ? age.data : 0), sentAt, receivedAt);
}
