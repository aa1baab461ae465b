import type { QuoteTeamView } from '../../shared/rpc';

/**
 * The team's reservation as the purchaser needs it (decision 0043): taken before the desk's own, released when
 * nothing was signed, told when the purchase ended. A desk in no team passes through a gate that does nothing.
 */
export interface TeamGateReservation {
  purchaseId: string;
  serviceUrl: string;
  handle: string;
  reportIds: readonly string[];
  amount: bigint;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  validBefore: bigint;
  acceptOverCap: boolean;
}

/** A quote's reports and price, as the team's dry run of the reservation needs them. */
export type TeamLookRequest = Pick<
  TeamGateReservation,
  'serviceUrl' | 'handle' | 'reportIds' | 'amount' | 'network' | 'asset'
>;

export interface TeamGate {
  /** What the team says of a quote before Buy; null in no team. Never throws: unreachable is an answer. */
  look(request: TeamLookRequest): Promise<QuoteTeamView | null>;
  /** Refuses (team_owned, team_in_progress, over a team cap, team_unreachable) or holds the reports. */
  reserve(reservation: TeamGateReservation): Promise<void>;
  /** Nothing was signed for this purchase after all: its team reservation goes. Never throws. */
  release(purchaseId: string): Promise<void>;
  /** The purchase ended on this desk, whatever its outcome: the team learns it in the background. */
  ended(purchaseId: string): void;
}

export const NO_TEAM: TeamGate = {
  look: () => Promise.resolve(null),
  reserve: () => Promise.resolve(),
  release: () => Promise.resolve(),
  ended: () => undefined,
};
