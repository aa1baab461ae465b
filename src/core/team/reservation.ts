/**
 * A team reservation as the desk asks for it and reads its answer (decision 0050): the call of
 * `reserve_purchase` (or its dry run), its grant or its refusal as a person reads it (who owns or is buying
 * the reports, which team cap the purchase would go over; nothing was signed), and the claims behind it.
 */
import type pg from 'pg';
import { z } from 'zod';
import { DeskError, refused } from '../base/errors';
import { formatUnitsUsd } from '../../shared/money';
import type { TeamGateReservation } from '../payments/team-gate';

/** The purchaser's reservation (payments/team-gate.ts) with who takes it: this desk and its analyst. */
export interface TeamReservation extends TeamGateReservation {
  deskId: string;
  analyst: string;
}

export const grantedSchema = z.object({
  spent: z.string().regex(/^\d+$/),
  dailyCap: z.string().regex(/^\d+$/).nullable(),
  perPurchaseCap: z.string().regex(/^\d+$/).nullable(),
});

const refusalSchema = z.object({
  refused: z.enum(['team_owned', 'team_in_progress', 'over_team_purchase_cap', 'over_team_daily_cap']),
  count: z.number().int().optional(),
  analyst: z.string().optional(),
  deskId: z.string().optional(),
  purchaseId: z.string().optional(),
  cap: z.string().regex(/^\d+$/).optional(),
  spent: z.string().regex(/^\d+$/).optional(),
  overCap: z.enum(['refuse', 'consent']).optional(),
  timeZone: z.string().optional(),
});

function refusal(answer: z.infer<typeof refusalSchema>): DeskError {
  const who = answer.analyst
    ? `${answer.analyst}${answer.deskId ? ` (desk ${answer.deskId})` : ''}`
    : 'another desk';
  const count = answer.count ?? 1;
  const reports = count === 1 ? 'one of these reports' : `${count} of these reports`;
  const nothing = 'nothing was signed';
  switch (answer.refused) {
    case 'team_owned':
      return refused(
        'team_owned',
        `The team already owns ${reports}, bought by ${who}; ${nothing}. Sync with the team ("intel-desk team sync") and ask for a new price: it leaves out what the team owns.`,
        { count, analyst: answer.analyst, deskId: answer.deskId, purchaseId: answer.purchaseId },
      );
    case 'team_in_progress':
      return refused(
        'team_in_progress',
        `${who} is buying ${reports} for the team right now; ${nothing}. They reach this desk once that purchase is done.`,
        { count, analyst: answer.analyst, purchaseId: answer.purchaseId },
      );
    case 'over_team_purchase_cap':
      return refused(
        'over_team_purchase_cap',
        `This purchase is over the team's per-purchase cap of ${formatUnitsUsd(BigInt(answer.cap ?? '0'))}; ${nothing}.${answer.overCap === 'consent' ? ' The team allows it with your explicit consent.' : " Ask the team's admin to raise the cap."}`,
        { cap: answer.cap, consentAllowed: answer.overCap === 'consent' },
      );
    case 'over_team_daily_cap':
      return refused(
        'over_team_daily_cap',
        `The team has spent or reserved ${formatUnitsUsd(BigInt(answer.spent ?? '0'))} of its daily cap of ${formatUnitsUsd(BigInt(answer.cap ?? '0'))} today (${answer.timeZone ?? 'UTC'}); this purchase would go over it, so ${nothing}.${answer.overCap === 'consent' ? ' The team allows it with your explicit consent.' : ''}`,
        { cap: answer.cap, spent: answer.spent, consentAllowed: answer.overCap === 'consent' },
      );
  }
}

/** A report of the team's claimed by a purchase: paid (the team owns it) or still open (being bought). */
export interface TeamClaim {
  reportId: string;
  state: 'owned' | 'in_progress';
  analyst: string;
  deskId: string;
}

const claimSchema = z.object({
  report_id: z.string(),
  state: z.enum(['reserved', 'paid', 'in_doubt']),
  analyst: z.string(),
  desk_id: z.string(),
});

export function claimOf(row: unknown): TeamClaim {
  const parsed = claimSchema.parse(row);
  return {
    reportId: parsed.report_id,
    state: parsed.state === 'paid' ? 'owned' : 'in_progress',
    analyst: parsed.analyst,
    deskId: parsed.desk_id,
  };
}

export async function reserveQuery(
  client: pg.PoolClient,
  request: TeamReservation,
  dryRun: boolean,
): Promise<unknown> {
  const result = await client.query<{ answer: unknown }>(
    `SELECT intel_desk.reserve_purchase($1, $2, $3, $4, $5, $6, $7, $8, $9, to_timestamp($10), $11, $12, $13, $14)
     AS answer`,
    [
      request.purchaseId,
      request.serviceUrl,
      request.handle,
      request.reportIds,
      request.amount.toString(),
      request.network,
      request.asset,
      request.payer,
      request.nonce,
      Number(request.validBefore),
      request.deskId,
      request.analyst,
      request.acceptOverCap,
      dryRun,
    ],
  );
  return result.rows[0]?.answer;
}

/** The function's refusal as a named DeskError; null when it granted; an answer in no known form throws. */
export function reservationRefusal(answer: unknown): DeskError | null {
  const denied = refusalSchema.safeParse(answer);
  if (denied.success) return refusal(denied.data);
  if (grantedSchema.safeParse(answer).success) return null;
  throw new DeskError(
    'team_db_error',
    'The team database answered a reservation in a form this desk does not know; nothing was signed.',
    'service',
  );
}
