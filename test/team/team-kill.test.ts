/**
 * A desk of a team killed with SIGKILL at each step of a purchase, and the team's database killed the same way
 * (`pg_ctl stop -m immediate`) in the middle of one: a colleague who wants the same report is refused before
 * signing while the dead desk may still pay, nothing is blocked for good once the desk is back, and in the end
 * each report is paid once on the chain, no claim is left without a live team purchase, and the team's paid
 * purchases are exactly the desks' completed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurchaseStep } from '../../src/core';
import { purchaseStepSchema } from '../../src/shared/events';
import { startStack, type Stack } from '../../src/service/stack';
import { bundleDeskWorker } from '../../scripts/chaos/bundle';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { shiftChainClock } from '../service/chain-time';
import { DeskProcess, type CommandResult } from '../../scripts/chaos/desk-process';
import { DESK_CLOCK_EXPIRY_MARGIN_MS } from '../../src/core/payments/chain-state';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { deskFor, firstHandle, ledgerRows, onPurchaseSteps, tempDir } from '../core/helpers';
import { runCli, stackEnv } from '../cli/run-cli';
import { createTestTeam, type TestTeam } from './team-helpers';

const PASSPHRASE = 'team kill, anvil test keys only';
/** Every step a desk can die at on the way to a completed purchase. */
const STEPS: readonly PurchaseStep[] = purchaseStepSchema.options.filter(
  (step) => step !== 'quoted' && step !== 'failed' && step !== 'in_doubt',
);
const REFUSED_BEFORE_SIGNING = ['team_in_progress', 'team_owned'];
/** Once a purchase's report is the team's, a colleague's quote leaves it out or the team refuses it. */
const ALREADY_THE_TEAMS = ['team_owned', 'all_owned'];
const ANSWERED: readonly PurchaseStep[] = ['response_received', 'stored', 'completed'];

let stack: Stack;
let cluster: PgCluster;
let worker: { file: string; remove(): void };
let team: TestTeam;
let handle: string;
let ids: string[];
const folders: { dir: string; remove(): void }[] = [];
const running: DeskProcess[] = [];

interface Member {
  dir: string;
  buyer: number;
}
let alice: Member;
let bob: Member;

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

function deskProcess(member: Member): DeskProcess {
  const desk = new DeskProcess({
    workerFile: worker.file,
    dataDir: member.dir,
    serviceUrl: stack.baseUrl,
    rpcUrl: stack.rpcUrl,
    demoAsset: stack.asset,
    passphrase: PASSPHRASE,
    timeoutMs: 5_000,
    chainTimeoutMs: 2_000,
  });
  running.push(desk);
  return desk;
}

function ok(result: CommandResult): unknown {
  if (result.kind !== 'ok') throw new Error(`expected an answer, got ${JSON.stringify(result)}`);
  return result.result;
}

const buy = (desk: DeskProcess, id: string, killAt: PurchaseStep | null = null, skewMs = 0) =>
  desk.send({ op: 'buy', handle, selection: { kind: 'ids', ids: [id] }, skewMs, killAt });

/** `intel-desk team sync` in the member's folder, as a person would run it after a crash. */
async function teamSync(member: Member): Promise<void> {
  const synced = await runCli(['team', 'sync', '--json'], stackEnv(stack, member.dir));
  expect(synced.code, synced.stdout + synced.stderr).toBe(0);
}

async function join(member: Member, analyst: string): Promise<void> {
  const joined = await runCli(
    ['team', 'join', '--db', team.memberUrl(analyst), '--json'],
    stackEnv(stack, member.dir),
  );
  expect(joined.code, joined.stdout + joined.stderr).toBe(0);
}

/** A desk with its wallet, started once so its keystore exists, then left stopped. */
async function withWallet(member: Member): Promise<void> {
  const desk = deskProcess(member);
  await desk.start();
  ok(await desk.send({ op: 'useBuyer', key: stack.buyerKeys[member.buyer]! }));
  await desk.stop();
}

/** The checks the issue names, read where they are kept: the chain, each desk's ledger, the team database. */
async function expectOneTeamLedger(reportIds: readonly string[]): Promise<void> {
  const rows = [...ledgerRows(alice.dir), ...ledgerRows(bob.dir)];
  const completed = new Set(
    rows.filter((row) => row.state === 'completed').map((row) => row.nonce.toLowerCase()),
  );
  const settled = (await settlementsOnChain(stack.chain)).filter((s) =>
    rows.some((row) => row.nonce.toLowerCase() === s.nonce),
  );
  expect(new Set(settled.map((s) => s.nonce))).toEqual(completed);
  const teamPurchases = await cluster.query(
    team.database,
    'SELECT nonce, state FROM intel_desk.purchases ORDER BY created_at',
  );
  const paid = teamPurchases.rows.filter((row: { state: string }) => row.state === 'paid');
  expect(new Set(paid.map((row: { nonce: string }) => row.nonce.toLowerCase()))).toEqual(completed);
  expect(
    teamPurchases.rows.filter((row: { state: string }) => row.state !== 'paid' && row.state !== 'failed'),
  ).toEqual([]);
  const orphanClaims = await cluster.query(
    team.database,
    `SELECT c.report_id FROM intel_desk.claims c JOIN intel_desk.purchases p USING (purchase_id)
     WHERE p.state = 'failed'`,
  );
  expect(orphanClaims.rows).toEqual([]);
  const claims = await cluster.query(team.database, 'SELECT report_id FROM intel_desk.claims');
  const claimed = claims.rows.map((row: { report_id: string }) => row.report_id).sort();
  expect(claimed).toEqual([...new Set(claimed)]);
  expect(claimed).toEqual([...reportIds].sort());
  // Paid once: every report's claim is one settlement, whoever paid it.
  expect(settled).toHaveLength(reportIds.length);
}

beforeAll(async () => {
  cluster = startCluster();
  [stack, worker] = await Promise.all([
    startStack({
      seed: { handles: 1, minReportsPerHandle: STEPS.length + 3, maxReportsPerHandle: STEPS.length + 3 },
      buyerCount: 2,
      mining: 'auto',
    }),
    bundleDeskWorker(),
  ]);
  ({ handle, ids } = await firstHandle(stack));
  team = await createTestTeam(cluster, ['alice', 'bob'], folder('desk-team-admin-'));
  alice = { dir: folder('desk-team-kill-alice-'), buyer: 0 };
  bob = { dir: folder('desk-team-kill-bob-'), buyer: 1 };
  await Promise.all([withWallet(alice), withWallet(bob)]);
  await Promise.all([join(alice, 'alice'), join(bob, 'bob')]);
}, 180_000);
afterAll(async () => {
  for (const desk of running) await desk.stop().catch(() => undefined);
  worker?.remove();
  for (const made of folders) made.remove();
  await stack?.stop();
  await cluster?.stop();
});

describe.skipIf(postgresBin() === null)('a team desk killed in the middle of a purchase', () => {
  it('at every step: the colleague is refused before signing, nothing stays blocked, each report paid once', async () => {
    const bought: string[] = [];
    for (const [index, step] of STEPS.entries()) {
      const id = ids[index]!;
      const first = deskProcess(alice);
      await first.start();
      expect((await buy(first, id, step)).kind, `killed at ${step}`).toBe('killed');
      await first.gone();

      // While alice's desk is gone, bob's purchase of the same report stops before anything is signed.
      const colleague = deskProcess(bob);
      await colleague.start();
      const before = ledgerRows(bob.dir).length;
      const refused = await buy(colleague, id);
      expect(refused.kind, `${step}: ${JSON.stringify(refused)}`).toBe('refused');
      expect(REFUSED_BEFORE_SIGNING, step).toContain((refused as { code: string }).code);
      expect(ledgerRows(bob.dir)).toHaveLength(before);

      // Alice's desk comes back: it settles what the kill left open (a request that may have left waits for
      // its authorization to close unused) and tells the team.
      const again = deskProcess(alice);
      await again.start();
      const open = ledgerRows(alice.dir).find((row) => row.state === 'in_doubt');
      const skewMs = open ? open.valid_before * 1000 + DESK_CLOCK_EXPIRY_MARGIN_MS + 1_000 - Date.now() : 0;
      ok(await again.send({ op: 'reconcile', skewMs }));
      await again.stop();
      await teamSync(alice);
      await teamSync(bob);

      // A desk killed once its request was answered kept the answer: its purchase completed on its return.
      const answered = ANSWERED.includes(step);
      const alicePaid = ledgerRows(alice.dir).some((row) => row.state === 'completed');
      expect(alicePaid, step).toBe(answered);
      const second = await buy(colleague, id);
      expect(second.kind === 'ok', `${step}: ${JSON.stringify(second)}`).toBe(!answered);
      if (second.kind === 'ok') {
        expect(second.result, step).toMatchObject({ status: 'completed' });
      } else {
        expect(second.kind, `${step}: ${JSON.stringify(second)}`).toBe('refused');
        expect(ALREADY_THE_TEAMS, step).toContain((second as { code: string }).code);
      }
      await colleague.stop();
      await teamSync(bob);
      bought.push(id);
      await expectOneTeamLedger(bought);
    }
  }, 600_000);

  it('the team database killed mid-purchase: the purchase completes and the team learns it on restart', async () => {
    const id = ids[STEPS.length]!;
    // The reservation is committed and the desk signs: the database dies before it hears how the purchase ended.
    let crashed = false;
    const desk = await deskFor(stack, alice.dir, {
      timeoutMs: 5_000,
      onEvent: onPurchaseSteps((_purchaseId, step) => {
        if (step !== 'signing' || crashed) return;
        crashed = true;
        cluster.crash();
      }),
    });
    try {
      await desk.handlers['wallet.unlock']({ passphrase: PASSPHRASE });
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      expect(outcome.status).toBe('completed');
      expect(crashed).toBe(true);
    } finally {
      await desk.close();
      cluster.start();
    }
    const stillOpen = await cluster.query(
      team.database,
      'SELECT state FROM intel_desk.purchases WHERE state = $1',
      ['reserved'],
    );
    expect(stillOpen.rows).toHaveLength(1);
    await teamSync(alice);
    await teamSync(bob);
    await expectOneTeamLedger([...ids.slice(0, STEPS.length), id]);
    const held = await runCli(['library', '--json'], stackEnv(stack, bob.dir));
    const listed = JSON.parse(held.stdout) as { id: string }[];
    expect(listed.map((item) => item.id)).toContain(id);
  }, 180_000);

  it('a desk killed and never back: the team frees what it never paid and keeps what it did', async () => {
    const [unpaid, paid] = [ids[STEPS.length + 1]!, ids[STEPS.length + 2]!];
    const carolDir = folder('desk-team-kill-carol-');
    const carol: Member = { dir: carolDir, buyer: 0 };
    await withWallet(carol);
    await join(carol, 'alice');
    for (const [id, step] of [
      [unpaid, 'signing'],
      [paid, 'response_received'],
    ] as const) {
      const desk = deskProcess(carol);
      await desk.start();
      expect((await buy(desk, id, step)).kind).toBe('killed');
      await desk.gone();
    }
    const colleague = deskProcess(bob);
    await colleague.start();
    for (const id of [unpaid, paid]) {
      expect(await buy(colleague, id)).toMatchObject({ kind: 'refused', code: 'team_in_progress' });
    }
    // PostgreSQL's clock cannot be moved: the dead desk's authorizations are made to close a minute ago instead,
    // as they would once their time had passed. The chain then says which was used.
    await cluster.query(
      team.database,
      "UPDATE intel_desk.purchases SET valid_before = now() - interval '61 seconds' WHERE state = 'reserved'",
    );
    await colleague.stop();
    // The chain's clock behind the database's: the authorizations may still settle there, so nothing is freed.
    await shiftChainClock(stack, -3_600);
    await teamSync(bob);
    const open = await cluster.query(
      team.database,
      "SELECT count(*)::int AS open FROM intel_desk.purchases WHERE state = 'reserved'",
    );
    expect(open.rows[0]).toEqual({ open: 2 });
    await shiftChainClock(stack, 0);
    await teamSync(bob);
    const again = deskProcess(bob);
    await again.start();
    expect(ok(await buy(again, unpaid))).toMatchObject({ status: 'completed' });
    expect(await buy(again, paid)).toMatchObject({ kind: 'refused', code: 'team_owned' });
    await again.stop();
    const states = await cluster.query(
      team.database,
      `SELECT c.report_id, p.state, p.analyst FROM intel_desk.claims c JOIN intel_desk.purchases p USING (purchase_id)
       WHERE c.report_id = ANY($1)`,
      [[unpaid, paid]],
    );
    expect(
      new Map(states.rows.map((row: { report_id: string; state: string }) => [row.report_id, row.state])),
    ).toEqual(
      new Map([
        [unpaid, 'paid'],
        [paid, 'paid'],
      ]),
    );
    const onChain = await settlementsOnChain(stack.chain);
    const nonces = [...ledgerRows(carolDir), ...ledgerRows(bob.dir)].map((row) => row.nonce.toLowerCase());
    expect(onChain.filter((s) => nonces.includes(s.nonce))).toHaveLength(
      ledgerRows(bob.dir).filter((row) => row.state === 'completed').length + 1,
    );
  }, 180_000);
});
