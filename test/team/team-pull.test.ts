/**
 * A desk's first pull, cut short in the middle of a slice (the process gone while it stored), resumes by
 * sequence: every report stored once, in the team's order, and indexed by the time the pull is done. Its
 * commits alone skip the WAL's fsync: the connection is back at FULL between slices and after the pull.
 */
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { createTeam, groupRoleFor } from '../../src/core/team/admin';
import { TeamAuthority } from '../../src/core/team/authority';
import { TeamMembership } from '../../src/core/team/membership';
import { TeamPull, type PullInto } from '../../src/core/team/team-pull';
import { LocalSealer } from '../../src/core/wallet/sealing';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { tempDir } from '../core/helpers';

const SERVICE = 'http://a.example';
const TEAM = 'Pullers';
/** Seven of the pull's batches of 100. */
const REPORTS = 700;
/** The put during which the desk stops: inside a slice of the seventh batch. */
const CRASH_AT = 613;

let cluster: PgCluster;

beforeAll(() => {
  cluster = startCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

function report(n: number): IntelReportSnapshot {
  return {
    id: `r${String(n).padStart(4, '0')}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: null },
    analytics: {},
    narrative: { summary: `report ${n} on tidal permits` },
    changeSummary: null,
    previousReportId: null,
  };
}

/** The reports as a desk publishes them, in this order of sequence (one paid purchase holds them). */
async function publish(database: string, reports: IntelReportSnapshot[]): Promise<void> {
  const purchaseId = randomUUID();
  await cluster.query(
    database,
    `INSERT INTO intel_desk.purchases (purchase_id, team_id, service_url, handle, report_count, amount, network,
       asset, payer, nonce, valid_before, desk_id, analyst, member_role, state, day)
     SELECT $1::uuid, id, $2, 'ada', $3, 0, 'eip155:8453', '0x0', '0xpayer', $1::text, now(), 'desk-a', 'ada',
       'postgres', 'paid', current_date FROM intel_desk.teams WHERE name = $4`,
    [purchaseId, SERVICE, reports.length, TEAM],
  );
  for (const snapshot of reports) {
    const raw = JSON.stringify(snapshot);
    await cluster.query(
      database,
      `INSERT INTO intel_desk.reports (team_id, service_url, handle, report_id, raw, sha256, purchase_id)
       SELECT id, $1, 'ada', $2, $3, $4, $5::uuid FROM intel_desk.teams WHERE name = $6`,
      [SERVICE, snapshot.id, raw, createHash('sha256').update(raw, 'utf8').digest('hex'), purchaseId, TEAM],
    );
  }
}

describe.skipIf(postgresBin() === null)("a team's first pull", () => {
  it('resumes by sequence after a crash mid-slice: each report once, in order, and indexed when done', async () => {
    const data = tempDir('desk-pull-');
    const database = await cluster.createDatabase(`pull_${process.pid}`);
    await createTeam(
      { url: cluster.url(database), password: null },
      { name: TEAM, dailyCap: null, perPurchaseCap: null, timeZone: 'UTC', overCap: 'refuse' },
    );
    const reports = Array.from({ length: REPORTS }, (_, n) => report(n));
    await publish(database, reports);
    await cluster.createRole('puller', 'pw-puller');
    await cluster.query(database, `GRANT ${groupRoleFor(TEAM)} TO puller`);
    const url = cluster.url(database, 'puller', 'pw-puller');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    const authority = new TeamAuthority({ url, password: null });
    try {
      const store = new SnapshotStore(db);
      const membership = new TeamMembership(
        db,
        path.join(data.dir, 'team-db.sealed'),
        new LocalSealer(path.join(data.dir, 'local.key'), undefined),
      );
      membership.join({ url, password: null, teamName: TEAM, analyst: 'puller', now: new Date() });
      let puts = 0;
      // synchronous: 2 is FULL, 1 NORMAL. Between slices is where a purchase's commit on this connection runs.
      const inSlice = new Set<unknown>();
      const betweenSlices = new Set<unknown>();
      const crashing: PullInto = {
        put(...args) {
          inSlice.add(db.pragma('synchronous', { simple: true }));
          if (++puts === CRASH_AT) throw new Error('the desk stopped');
          store.put(...args);
        },
        indexBehind: () => {
          betweenSlices.add(db.pragma('synchronous', { simple: true }));
          return store.indexBehind();
        },
      };
      await expect(new TeamPull(db, authority, membership, crashing).all()).rejects.toThrow(
        'the desk stopped',
      );
      const kept = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM snapshots').get()!.n;
      // The slice being stored rolled back with the sequence it would have moved to.
      expect(kept).toBeLessThan(CRASH_AT);
      expect(membership.current()?.pulledUpTo).toBeGreaterThanOrEqual(kept);
      // Only the pull's own commits skip the fsync, and a pull that failed leaves the connection as it was.
      expect([...inSlice]).toEqual([1]);
      expect([...betweenSlices]).toEqual([2]);
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);

      expect(await new TeamPull(db, authority, membership, store).all()).toBe(REPORTS - kept);
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      // Pulled and searchable together: nothing is left for the indexing pass.
      expect(store.indexing()).toBeNull();
      const stored = db.prepare<[], string>('SELECT id FROM snapshots ORDER BY text_id').pluck().all();
      expect(stored).toEqual(reports.map((snapshot) => snapshot.id));
      const found = db
        .prepare<[], { n: number }>(
          `SELECT COUNT(*) AS n FROM snapshot_search WHERE snapshot_search MATCH '"tidal permits"'`,
        )
        .get()!.n;
      expect(found).toBe(REPORTS);
      expect(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM team_reports').get()!.n).toBe(REPORTS);
      expect(store.search('tidal', 1)[0]?.boughtBy).toEqual({ analyst: 'ada', deskId: 'desk-a' });
    } finally {
      await authority.close();
      db.close();
      data.remove();
    }
  }, 120_000);
});
