/**
 * The details some refusals carry across the boundary, so the UI can offer one click instead of starting
 * over: the fresh quote after a price change, both payees after a payee change, the cap and amounts over a
 * cap. Amounts are token base units as decimal strings, like QuoteView.amount. Only these cross: other
 * details a DeskError holds stay in core.
 */
import { z } from 'zod';

const units = z.string().regex(/^\d+$/);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

export const quoteChangedDetailsSchema = z.object({
  /** The fresh quote, held for purchase.start: confirming its amount buys at the new price. */
  quoteId: z.string().min(1),
  amount: units,
});
export type QuoteChangedDetails = z.infer<typeof quoteChangedDetailsSchema>;

export const payeeChangedDetailsSchema = z.object({ pinned: address, payTo: address });
export type PayeeChangedDetails = z.infer<typeof payeeChangedDetailsSchema>;

export const capDetailsSchema = z.object({
  cap: units,
  /** What this purchase would pay. */
  amount: units,
  /** Already spent today, in-doubt purchases included. */
  spent: units,
});
export type CapDetails = z.infer<typeof capDetailsSchema>;

/** Where a library query stops making sense: the column (from 1) and how many characters to mark. */
export const searchSyntaxDetailsSchema = z.object({
  column: z.number().int().positive(),
  length: z.number().int().positive(),
});
export const budgetDetailsSchema = capDetailsSchema.extend({
  /** The handle whose monthly budget it is; `spent` is what it committed this month. */
  handle: z.string().min(1),
});
export type BudgetDetails = z.infer<typeof budgetDetailsSchema>;

/** A wallet import refused because another wallet is set up: both addresses, for the replace dialog. */
export const walletExistsDetailsSchema = z.object({
  /** The stored wallet's address, or a phrase when its file cannot be read. */
  current: z.string().min(1),
  incoming: address,
});
export type WalletExistsDetails = z.infer<typeof walletExistsDetailsSchema>;

/** A purchase refused because the team already owns some of its reports: how many, and who bought them. */
export const teamOwnedDetailsSchema = z.object({
  count: z.number().int().positive(),
  analyst: z.string().max(200).optional(),
  deskId: z.string().max(200).optional(),
});

export const rpcErrorDetailsSchemas = {
  team_owned: teamOwnedDetailsSchema,
  search_syntax: searchSyntaxDetailsSchema,
  quote_changed: quoteChangedDetailsSchema,
  payee_changed: payeeChangedDetailsSchema,
  over_purchase_cap: capDetailsSchema,
  over_daily_cap: capDetailsSchema,
  over_handle_budget: budgetDetailsSchema,
  wallet_exists: walletExistsDetailsSchema,
} as const;

export type DetailedErrorCode = keyof typeof rpcErrorDetailsSchemas;

export type RpcErrorDetails = {
  [C in DetailedErrorCode]: z.infer<(typeof rpcErrorDetailsSchemas)[C]>;
};

export function isDetailedErrorCode(code: string): code is DetailedErrorCode {
  return Object.hasOwn(rpcErrorDetailsSchemas, code);
}

/** What of a core error's details may cross: the typed details of its code, nothing for other codes. */
export function crossingDetails(code: string, details: unknown): Record<string, unknown> | undefined {
  if (!isDetailedErrorCode(code)) return undefined;
  const parsed = rpcErrorDetailsSchemas[code].safeParse(details);
  return parsed.success ? parsed.data : undefined;
}

/** The details of an error with this code, checked against its schema; null for another code or no fit. */
export function rpcErrorDetails<C extends DetailedErrorCode>(
  error: { code: string; details?: unknown },
  code: C,
): RpcErrorDetails[C] | null {
  if (error.code !== code) return null;
  const parsed = rpcErrorDetailsSchemas[code].safeParse(error.details);
  return parsed.success ? (parsed.data as RpcErrorDetails[C]) : null;
}
