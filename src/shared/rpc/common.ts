/** Schemas and shapes more than one domain of the contract uses. */
import { z } from 'zod';
import { MAX_LIMIT_UNITS } from '../money';

/**
 * An amount of money as it crosses the contract: USDC base units (six decimals) as a decimal integer string,
 * "12500" for $0.0125. Strings, not numbers: exact at any size, and never summed as floats (decision 0034).
 */
export const baseUnits = z
  .string()
  .regex(/^(0|[1-9]\d{0,29})$/, 'an amount in token base units (digits only)');

/** A cap, a budget or a limit a person sets: base units, at most one million USD. */
export const limitUnits = baseUnits.refine((units) => BigInt(units) <= MAX_LIMIT_UNITS, {
  message: 'at most 1,000,000 USD',
});

export const handleInput = z.string().trim().min(1).max(100);

/**
 * The keystore's passphrase as consent to raise a cap or a budget, or to go over one (decision 0022): it
 * crosses into core only, is checked by unsealing wallet.json, and is never kept or sent back.
 */
export const consentPassphrase = z.string().min(1).max(1024).optional();

export const selectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({
    kind: z.literal('dates'),
    from: z.string().min(1).optional(),
    to: z.string().min(1).optional(),
  }),
  z.object({ kind: z.literal('ids'), ids: z.array(z.string().min(1)).min(1).max(1000) }),
]);

export type Selection = z.infer<typeof selectionSchema>;

/** How a quote or purchase is settled: a signed USDC payment, or the first-party library secret (spec 5.8). */
export type PaidWith = 'payment' | 'library_secret';

export type PurchaseState = 'signed' | 'sent' | 'completed' | 'failed' | 'in_doubt';

/** A file for the person to save; binary formats (PDF) travel base64-encoded. */
export interface ExportedFile {
  filename: string;
  mimeType: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

/** An http(s) URL, as every URL the desk connects to must be; the same rule in the app and the CLI. */
export const httpUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'Give an http:// or https:// URL.',
  });
