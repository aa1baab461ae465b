/** The team library (decision 0043): create a team, join one, see it, sync with it, leave it. */
import { z } from 'zod';
import { limitUnits } from './common';
import { method } from './method';

/** A postgres:// or postgresql:// URL as typed; its password, if any, is sealed by core and never returned. */
const teamUrl = z.string().trim().min(1).max(2048);

export interface TeamCapsView {
  name: string;
  timeZone: string;
  /** Base units; null for no cap. */
  dailyCap: string | null;
  perPurchaseCap: string | null;
  overCap: 'refuse' | 'consent';
  spentToday: string;
  inDoubt: number;
  reserved: number;
  reports: number;
}

export type TeamView =
  | { joined: false }
  | {
      joined: true;
      teamName: string;
      /** The URL without its password. */
      url: string;
      deskId: string;
      analyst: string;
      joinedAt: string;
      syncedAt: string | null;
      /** Reports pulled from the team into this library. */
      pulled: number;
      /** Whether the team answered just now; when it did not, `caps` is the copy of `capsAt`. */
      reachable: boolean;
      unreachableReason: string | null;
      caps: TeamCapsView | null;
      capsAt: string | null;
    };

/** A report the team owns (a colleague paid for it) or is buying right now (a purchase still open). */
export interface TeamReportMark {
  id: string;
  state: 'owned' | 'in_progress';
  analyst: string;
  deskId: string;
}

/**
 * What the team says of a quote's reports, for a desk in a team: the reports it owns or is buying (the rest
 * are free), and the refusal the reservation would meet at Buy, before anything is signed. When the team does
 * not answer, the price still stands, but buying needs the team.
 */
export type QuoteTeamView =
  | {
      reachable: true;
      reports: TeamReportMark[];
      /** How many of the quote's reports no purchase of the team claims. */
      free: number;
      refusal: {
        code: 'team_owned' | 'team_in_progress' | 'over_team_purchase_cap' | 'over_team_daily_cap';
        message: string;
      } | null;
    }
  /** No answer (team_unreachable), or none this desk can act on (a schema it does not know, a sign-in refused). */
  | { reachable: false; code: string; reason: string };

export interface TeamCreated {
  name: string;
  groupRole: string;
  schemaVersion: number;
  created: boolean;
  upgradedFrom: number;
}

export interface TeamSyncView {
  told: number;
  published: number;
  freed: number;
  pulled: number;
  team: TeamView;
}

export const teamMethods = {
  'team.create': method<TeamCreated>()({
    input: z.object({
      url: teamUrl,
      name: z.string().trim().min(1).max(80),
      dailyCap: limitUnits.nullable().optional(),
      perPurchaseCap: limitUnits.nullable().optional(),
      timeZone: z.string().min(1).max(64).optional(),
      overCap: z.enum(['refuse', 'consent']).optional(),
    }),
    reads: [],
    changes: [],
    hostOnly: true,
  }),
  'team.join': method<TeamView>()({
    input: z.object({ url: teamUrl }),
    reads: [],
    changes: ['settings', 'library', 'purchases'],
  }),
  'team.status': method<TeamView>()({ input: z.object({}), reads: ['settings', 'purchases'], changes: [] }),
  'team.sync': method<TeamSyncView>()({
    input: z.object({}),
    reads: [],
    changes: ['settings', 'library', 'purchases'],
  }),
  'team.leave': method<{ left: boolean }>()({
    input: z.object({}),
    reads: [],
    changes: ['settings', 'purchases'],
  }),
};
