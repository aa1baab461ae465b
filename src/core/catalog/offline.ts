/** When a failed request to the service makes the last-known copy of what it serves worth showing. */
import { DeskError } from '../base/errors';

/** Failures that make the last-known copy worth showing: the service is away or broken, not refusing. */
const UNUSABLE_ANSWERS = new Set(['service_unexpected_status', 'service_malformed', 'service_oversize']);

/** The reason to show with a stale copy, or null when the error is a refusal and must be shown itself. */
export function offlineReason(error: unknown): string | null {
  if (!(error instanceof DeskError)) return null;
  const status = error.details['status'];
  const serverFault = typeof status === 'number' && (status >= 500 || status === 429);
  return error.kind === 'network' || UNUSABLE_ANSWERS.has(error.code) || serverFault ? error.message : null;
}
