/**
 * The details some refusals carry to the window, so it can offer the one step that helps (accept the new
 * price, accept the new payee) instead of starting over. Only codes listed here send details across the
 * boundary, and only what their schema names: whatever else core attached for its logs stays in core.
 */
import { z } from 'zod';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

export const errorDetailSchemas = {
  /** The service asks another price (or payee, count, token) than the one confirmed: a fresh quote to accept. */
  quote_changed: z.object({
    quoteId: z.string().min(1),
    /** The fresh quote's amount in token base units, as a decimal string. */
    amount: z.string().regex(/^\d+$/),
    payTo: address,
  }),
  /** The payee differs from the one pinned for this service by an earlier purchase. */
  payee_changed: z.object({ pinned: address, payTo: address }),
} as const;

export type ErrorDetailCode = keyof typeof errorDetailSchemas;
export type ErrorDetails<C extends ErrorDetailCode> = z.infer<(typeof errorDetailSchemas)[C]>;

function isDetailCode(code: string): code is ErrorDetailCode {
  return Object.hasOwn(errorDetailSchemas, code);
}

/** The details of `code` as its schema allows, or undefined when the code has none or they do not fit. */
export function errorDetails<C extends ErrorDetailCode>(
  code: C,
  details: unknown,
): ErrorDetails<C> | undefined;
export function errorDetails(code: string, details: unknown): unknown;
export function errorDetails(code: string, details: unknown): unknown {
  if (!isDetailCode(code)) return undefined;
  const parsed = errorDetailSchemas[code].safeParse(details);
  return parsed.success ? parsed.data : undefined;
}
