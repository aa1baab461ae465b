/** Schemas and shapes more than one domain of the contract uses. */
import { z } from 'zod';

export const handleInput = z.string().trim().min(1).max(100);

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
