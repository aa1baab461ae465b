/**
 * A choice of reports as an assistant gives it: all of a handle's reports, a date range, or ids. Flat fields
 * rather than a union, which assistants fill in more reliably; exactly one kind must be given.
 */
import { z } from 'zod';
import { dateRange } from '../host/text/dates';
import { DeskError } from '../core';
import type { Selection } from '../shared/rpc';
import { ToolRefusal } from './call';

export const handleArg = z
  .string()
  .trim()
  .min(1, 'handle is required: a handle from the shelf, such as "ada_lindqvist" (no @ needed)')
  .max(100)
  .describe('The handle (social-network username) as listed by list_shelf, e.g. "ada_lindqvist".');

export const selectionShape = {
  all: z
    .boolean()
    .optional()
    .describe('true: every report of the handle (owned ones are left out unless includeOwned).'),
  from: z
    .string()
    .optional()
    .describe('Start of a date range: an ISO day (2026-10-01, the whole day) or ISO timestamp.'),
  to: z
    .string()
    .optional()
    .describe('End of a date range: an ISO day (2026-10-31, the whole day) or timestamp.'),
  ids: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(200)
    .optional()
    .describe('Report ids from get_menu, e.g. ["rpt_ada_003"].'),
  includeOwned: z
    .boolean()
    .optional()
    .describe(
      'Buy reports already in the library again (default false: they are left out and not paid for).',
    ),
};

export interface SelectionArgs {
  all?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
  ids?: string[] | undefined;
}

export function selectionOf(args: SelectionArgs): Selection {
  const dates = args.from !== undefined || args.to !== undefined;
  const kinds = [args.all === true, dates, args.ids !== undefined].filter(Boolean).length;
  if (kinds !== 1)
    throw new ToolRefusal(
      'invalid_selection',
      'Choose exactly one of: all: true, a date range (from and/or to), or ids (a list of report ids).',
    );
  if (args.all) return { kind: 'all' };
  if (args.ids) return { kind: 'ids', ids: args.ids };
  try {
    return { kind: 'dates', ...dateRange(args.from, args.to) };
  } catch (error) {
    if (error instanceof DeskError)
      throw new ToolRefusal(
        'invalid_selection',
        error.message.replaceAll('--from', 'from').replaceAll('--to', 'to'),
      );
    throw error;
  }
}
