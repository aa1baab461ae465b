/**
 * A purchase brought back from its service after signing in (restore/), as the ledger tells it apart: its id
 * starts with RESTORED_ID_PREFIX, and its quote records when it came back and whether the chain confirmed the
 * payment (`restored.onChain`). Until the chain does, its amount is only the service's word: it is outside the
 * caps and the spend totals (spend.ts), and what it moved is shown as unknown.
 */
import { z } from 'zod';

export const RESTORED_ID_PREFIX = 'restored_';

const restoredQuoteSchema = z.looseObject({
  restored: z.looseObject({ at: z.string(), onChain: z.boolean().optional() }),
});

/** Whether the row is a restored purchase whose payment the chain has not confirmed. */
export function restoredUnconfirmed(row: { id: string; quote_json: string }): boolean {
  if (!row.id.startsWith(RESTORED_ID_PREFIX)) return false;
  try {
    const parsed = restoredQuoteSchema.safeParse(JSON.parse(row.quote_json));
    return !(parsed.success && parsed.data.restored.onChain === true);
  } catch {
    return true;
  }
}
