/**
 * When the panel says an earlier purchase of the choice is unresolved. Every paid request is 'sent' for the
 * moment it takes the service to answer, and the quote asked for meanwhile names it: in-doubt words then
 * would describe an ordinary purchase. So the words wait for a purchase that is really in doubt, or one still
 * unanswered after a moment; while this panel's own purchase is under way its progress says where it is.
 */
import type { QuoteView } from '../../../shared/rpc';

/** Longer than an ordinary paid request takes (settling on chain included). */
export const UNRESOLVED_AFTER_MS = 3_000;

/**
 * `seenSinceMs`: when this window first saw the purchase unresolved. Its age counts from the older of that and
 * its creation, so a purchase made long ago is named at once, and one whose time core's clock puts in this
 * window's future still is after a moment.
 */
export function unresolvedNote(
  unresolved: NonNullable<QuoteView['unresolved']>,
  sending: boolean,
  nowMs: number,
  seenSinceMs: number,
): { show: boolean; recheckInMs: number | null } {
  if (unresolved.state === 'in_doubt') return { show: true, recheckInMs: null };
  if (sending) return { show: false, recheckInMs: null };
  const created = Date.parse(unresolved.createdAt);
  const age = nowMs - Math.min(seenSinceMs, Number.isNaN(created) ? seenSinceMs : created);
  if (age >= UNRESOLVED_AFTER_MS) return { show: true, recheckInMs: null };
  return { show: false, recheckInMs: UNRESOLVED_AFTER_MS - age };
}
