/**
 * The team domain put together (decision 0050): where this desk's membership is kept, the gate every
 * purchase passes before its own reservation, and joining, seeing and leaving the team.
 */
import path from 'node:path';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';
import type { LocalSealer } from '../wallet/sealing';
import type { SnapshotStore } from '../library/snapshots';
import type { PurchaseLedger } from '../ledger/purchases';
import { TeamMembership } from '../team/membership';
import { TeamDesk } from '../team/team-desk';
import { TeamViews } from '../team/team-view';
import type { DeskChains } from './chains';

export interface TeamParts {
  db: DeskDb;
  ledger: PurchaseLedger;
  dataDir: string;
  sealer: LocalSealer;
  snapshots: SnapshotStore;
  events: DeskEvents;
  chains: DeskChains;
  serviceUrl: () => string;
  nativeBinding?: string | undefined;
  now: () => number;
}

export class DeskTeam {
  readonly membership: TeamMembership;
  readonly desk: TeamDesk;
  readonly views: TeamViews;

  constructor(parts: TeamParts) {
    const { db, ledger, dataDir, sealer, snapshots, events, chains, serviceUrl, nativeBinding, now } = parts;
    this.membership = new TeamMembership(db, path.join(dataDir, 'team-db.sealed'), sealer);
    this.desk = new TeamDesk({
      db,
      ledger,
      membership: this.membership,
      library: snapshots,
      events,
      now,
      serviceUrl,
      nativeBinding,
      chain: (network) => chains.chain(network),
    });
    this.views = new TeamViews(db, this.membership, this.desk, now);
  }
}
