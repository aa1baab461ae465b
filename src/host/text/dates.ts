/**
 * --from/--to as ISO dates only. Anything else (01/10/2026, "yesterday", 2026-13-01) is a usage error that
 * names the value: a date read the wrong way would quote, and buy, the wrong reports.
 */
import { z } from 'zod';
import { whyNotADay } from '../../shared/calendar';
import { UsageError } from './usage-error';

const isoDay = z.iso.date();
const isoInstant = z.iso.datetime({ offset: true });

const EXPECTED = 'an ISO date such as 2026-10-01 or a full ISO timestamp such as 2026-10-01T08:30:00Z';

/**
 * One bound as the service compares it (createdAt strings, UTC). A bare day covers the whole day, like the
 * app's date picker: From starts at 00:00:00.000Z, To ends at 23:59:59.999Z.
 */
export function dateBound(flag: '--from' | '--to', raw: string): string {
  const value = raw.trim();
  if (isoDay.safeParse(value).success) {
    return flag === '--from' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
  }
  if (isoInstant.safeParse(value).success) {
    // UTC timestamps pass as written, so a createdAt copied from the menu matches itself exactly.
    return /z$/i.test(value) ? value.replace(/z$/, 'Z') : new Date(value).toISOString();
  }
  // A value in the right shape gets what is wrong with its day, not the shape it already has.
  const why = whyNotADay(value.slice(0, 10));
  throw new UsageError(`${flag} "${raw.slice(0, 60)}" is not a date: ${why ?? `use ${EXPECTED}`}.`);
}

export function dateRange(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  const range = {
    ...(from !== undefined ? { from: dateBound('--from', from) } : {}),
    ...(to !== undefined ? { to: dateBound('--to', to) } : {}),
  };
  if (range.from !== undefined && range.to !== undefined && Date.parse(range.from) > Date.parse(range.to)) {
    throw new UsageError(`--from ${from ?? ''} is after --to ${to ?? ''}: no report can be in that range.`);
  }
  return range;
}
