/**
 * Errors that cross into the UI and the CLI: a stable code to branch on and a message fit to show a person.
 * The kind groups codes for exit statuses and styling; the cause stays in core for logs.
 */
import type { DeskErrorCode } from '../../shared/error-codes';

export type { DeskErrorCode } from '../../shared/error-codes';
export type DeskErrorKind = 'usage' | 'refused' | 'service' | 'network' | 'storage' | 'wallet' | 'internal';

export class DeskError extends Error {
  constructor(
    readonly code: DeskErrorCode,
    message: string,
    readonly kind: DeskErrorKind = 'internal',
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DeskError';
  }
}

export const refused = (code: DeskErrorCode, message: string, details: Record<string, unknown> = {}) =>
  new DeskError(code, message, 'refused', details);
