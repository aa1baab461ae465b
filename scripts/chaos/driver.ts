/**
 * A chaos run: the reference service (its own process), a local chain, and two desks sharing nothing, each in
 * a process behind its own fault-injecting proxies, buying from several buyers while faults are drawn from a
 * seeded source. It then reconciles until nothing is in doubt and checks the invariants against the chain.
 * With `shared`, three desk processes share one data folder (the window, a CLI run and the MCP server of one
 * person) and draw their purchases from a few handles, so they race for the same reports and the same caps.
 * With `team`, three desks with a folder and a wallet each join one team on a throwaway PostgreSQL cluster,
 * race for the same reports and the team's caps, and meet the team database's faults besides the others.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { startDemoChain, type DemoChain } from '../../src/service/chain/demo-chain';
import { balanceOf, settlementsOnChain } from './chain';
import { ChainProxy } from './chain-proxy';
import { bundleDeskWorker } from './bundle';
import { DeskProcess } from './desk-process';
import { FAULT_KINDS, FaultTally, TEAM_FAULT_KINDS } from './faults';
import { checkInvariants, type DeskEvidence, type Invariant } from './invariants';
import { expectOk, onePurchase, reconcile, settleAll, settleTeam, teamSync, type Lane } from './lane';
import { ChaosTeam } from './team';
import { checkTeamInvariants } from './team-invariants';
import { committedOn, readDesk } from './ledger';
import { Prng } from './prng';
import { ServiceProcess } from './service-process';
import { ServiceProxy } from './service-proxy';

export interface ChaosOptions {
  purchases: number;
  seed: number;
  minutes: number;
  /** Three desk processes on one data folder instead of two desks with a folder each. */
  shared?: boolean;
  /** Three desks of one team on a throwaway PostgreSQL cluster, its faults drawn besides the others. */
  team?: boolean;
  log?: (line: string) => void;
}

export interface ChaosResult {
  seed: number;
  purchases: number;
  outcomes: Map<string, number>;
  faults: FaultTally;
  deskKills: number;
  serviceKills: number;
  /** `pg_ctl stop -m immediate` of the team's cluster (team runs). */
  pgCrashes: number;
  invariants: Invariant[];
  violations: number;
  durationMs: number;
  stopReason: string;
}

const UNIT_PRICE_USD = 0.01;
/** $0.05, in token base units. */
const PER_PURCHASE_CAP = 50_000n;
const TIMEOUT_MS = 2_500;
const CHAIN_TIMEOUT_MS = 1_000;
const PASSPHRASE = 'chaos run passphrase, anvil test keys only';
const BUYERS_PER_DESK = 2;
/** The team's per-purchase cap, under each desk's own: some purchases a desk allows, the team refuses. */
const TEAM_PER_PURCHASE_CAP = 40_000n;

const menuSchema = z.object({ reports: z.array(z.object({ id: z.string() })) });
const shelfSchema = z.object({ entries: z.array(z.object({ username: z.string() })) });

async function catalog(baseUrl: string): Promise<Map<string, string[]>> {
  const shelf = shelfSchema.parse(await (await fetch(`${baseUrl}/api/intel/list`)).json());
  const menus = new Map<string, string[]>();
  for (const { username } of shelf.entries) {
    const menu = menuSchema.parse(
      await (await fetch(`${baseUrl}/api/intel/reports?username=${encodeURIComponent(username)}`)).json(),
    );
    menus.set(
      username,
      menu.reports.map((r) => r.id),
    );
  }
  return menus;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const deadline = started + options.minutes * 60_000;
  const root = mkdtempSync(path.join(tmpdir(), 'intel-desk-chaos-'));
  const faults = new FaultTally(options.team ? TEAM_FAULT_KINDS : FAULT_KINDS);
  const outcomes = new Map<string, number>();
  const count = (label: string) => outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
  const cleanup: (() => Promise<void>)[] = [];
  let chain: DemoChain | null = null;
  let keep = false;
  try {
    const worker = await bundleDeskWorker();
    cleanup.push(async () => worker.remove());
    chain = await startDemoChain({ buyerCount: (options.team ? 3 : 2) * BUYERS_PER_DESK });
    const demoChain = chain;
    cleanup.push(() => demoChain.stop());
    const service = new ServiceProcess({
      chain,
      dataDir: path.join(root, 'service'),
      unitPriceUsd: UNIT_PRICE_USD,
      librarySecret: randomBytes(24).toString('base64url'),
      handles: 120,
      minReports: 2,
      maxReports: 12,
    });
    await service.start();
    cleanup.push(() => service.stop());
    log(`service up in ${Math.round((Date.now() - started) / 1000)} s`);
    const menus = await catalog(service.baseUrl);
    log(`catalog read in ${Math.round((Date.now() - started) / 1000)} s`);

    // One service kill at a time: both desks share the service.
    let killing: Promise<void> = Promise.resolve();
    const killService = (afterMs: number) => {
      killing = killing.then(async () => {
        await new Promise((resolve) => setTimeout(resolve, afterMs));
        await service.killAndRestart();
        for (const lane of lanes) lane.proxy.target = service.baseUrl;
      });
      return killing;
    };

    const names = options.shared || options.team ? ['desk-a', 'desk-b', 'desk-c'] : ['desk-a', 'desk-b'];
    const perDesk = Math.ceil(options.purchases / names.length);
    // Binds late in a run: the last purchases meet the daily cap, in-doubt ones counted. Processes on one
    // folder share one cap.
    const perFolder = options.shared ? options.purchases : perDesk;
    const dailyCap = BigInt(Math.max(100_000, perFolder * 10_000));
    // Processes on one folder draw from a few handles, so that they race for the same reports; the pool
    // grows with the run, so a long one does not end with every report owned.
    // Desks of a team race harder still: the team's reservation is what is under test.
    const pool = options.team
      ? Math.max(8, Math.ceil(options.purchases / 6))
      : Math.max(20, Math.ceil(options.purchases / 4));
    const raced = options.shared || options.team ? new Map([...menus].slice(0, pool)) : menus;
    // The team's daily cap binds before the desks' own do, late in a run, in-doubt purchases counted.
    const team = options.team
      ? await ChaosTeam.start({
          perPurchase: TEAM_PER_PURCHASE_CAP,
          daily: BigInt(Math.max(100_000, options.purchases * 6_000)),
        })
      : null;
    if (team) {
      cleanup.push(() => team.stop());
      log(`team database up in ${Math.round((Date.now() - started) / 1000)} s`);
    }
    const lanes: Lane[] = [];
    let groupRole: string | undefined;
    for (const [index, name] of names.entries()) {
      // Processes on one folder reach the service at one address, as the window and a CLI run of one person
      // do: the library keys reports by service URL. Their faults then strike whichever request comes.
      // Desks of a team do too: the team claims a report per service URL, as analysts of one team name one
      // service.
      const sharesWith = options.shared ? lanes[0] : undefined;
      const sharedProxy = options.shared || options.team ? lanes[0]?.proxy : undefined;
      const proxy =
        sharedProxy ?? new ServiceProxy(service.baseUrl, { delayMs: TIMEOUT_MS + 1_000, killService });
      const chainProxy = sharesWith?.chainProxy ?? new ChainProxy(chain.rpcUrl, CHAIN_TIMEOUT_MS + 1_500);
      if (!sharedProxy) await proxy.start();
      if (!sharesWith) await chainProxy.start();
      const dataDir = path.join(root, options.shared ? 'shared' : name);
      // The first process on a shared folder sets up its wallet and caps.
      const setsUp = !options.shared || index === 0;
      const desk = new DeskProcess({
        workerFile: worker.file,
        dataDir,
        serviceUrl: proxy.url,
        rpcUrl: chainProxy.url,
        demoAsset: chain.asset,
        passphrase: PASSPHRASE,
        timeoutMs: TIMEOUT_MS,
        chainTimeoutMs: CHAIN_TIMEOUT_MS,
      });
      await desk.start();
      log(`${name} up in ${Math.round((Date.now() - started) / 1000)} s`);
      const buyerSet = options.shared ? 0 : index;
      const buyerKeys = chain.buyerKeys.slice(buyerSet * BUYERS_PER_DESK, (buyerSet + 1) * BUYERS_PER_DESK);
      lanes.push({
        name,
        dataDir,
        desk,
        proxy,
        chainProxy,
        prng: new Prng((options.seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0),
        buyerKeys,
        buyer: 0,
        evidence: { name, kills: 0, damaged: [], capBreaches: [], capChecks: 0 },
        pg: null,
      });
      cleanup.push(async () => {
        await desk.kill();
        if (!sharedProxy) await proxy.close();
        if (!sharesWith) await chainProxy.close();
      });
      if (team) {
        // The first desk is also the team's admin: it creates the team with its caps.
        groupRole ??= z.object({ groupRole: z.string() }).parse(
          expectOk(
            await desk.send({
              op: 'teamCreate',
              url: team.adminUrl,
              name: team.name,
              perPurchaseCapUnits: team.caps.perPurchase.toString(),
              dailyCapUnits: team.caps.daily.toString(),
            }),
            'creating the team',
          ),
        ).groupRole;
        const member = await team.member(name, groupRole);
        lanes.at(-1)!.pg = member.proxy;
        expectOk(await desk.send({ op: 'teamJoin', url: member.url }), 'joining the team');
      }
      // Started after the first imported it, the others unlock the folder's wallet as they start.
      if (!setsUp) continue;
      expectOk(await desk.send({ op: 'useBuyer', key: buyerKeys[0]! }), 'importing the buyer key');
      expectOk(
        await desk.send({
          op: 'caps',
          perPurchaseCapUnits: PER_PURCHASE_CAP.toString(),
          dailyCapUnits: dailyCap.toString(),
        }),
        'setting the caps',
      );
    }
    const buyers = await Promise.all(
      chain.buyerKeys.map(async (key) => {
        const address = privateKeyToAccount(key).address;
        return { address, before: await balanceOf(demoChain, address) };
      }),
    );

    log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
    let done = 0;
    const stopReason = { value: 'purchases' };
    const runLane = async (lane: Lane) => {
      for (let i = 0; i < perDesk; i++) {
        if (Date.now() > deadline) {
          stopReason.value = 'minutes';
          return;
        }
        // A restarting service is waited for: purchases against a dead one would only test refusals.
        await killing;
        const bought = await onePurchase(
          lane,
          demoChain,
          raced,
          faults,
          count,
          options.shared ?? false,
          team,
        );
        const before = done;
        done += bought;
        if (Math.floor(done / 50) > Math.floor(before / 50))
          log(`${done} purchases, ${Math.round((Date.now() - started) / 1000)} s`);
        // What a person's ledger holds right now, in doubt included, against the caps.
        const { rows } = readDesk(lane.dataDir);
        lane.evidence.capChecks++;
        const today = committedOn(rows, new Date());
        if (today > dailyCap)
          lane.evidence.capBreaches.push(`${lane.name}: ${today} units committed today after purchase ${i}`);
        await team?.checkCaps(`${lane.name} purchase ${i}`);
        if (i % 10 === 9) await reconcile(lane, 0);
        if (team && i % 10 === 4) await teamSync(lane);
      }
    };
    await Promise.all(lanes.map(runLane));
    await killing;
    log(`purchases done in ${Math.round((Date.now() - started) / 1000)} s`);

    for (const lane of folders(lanes)) await settleAll(lane, demoChain, log);
    if (team) await settleTeam(lanes, team, log);
    const teamEvidence = team && {
      rows: await team.rows(),
      claims: await team.claims(),
      caps: team.caps,
      capBreaches: team.capBreaches,
      capChecks: team.capChecks,
    };
    for (const lane of lanes) {
      await lane.desk.stop();
      await lane.proxy.quiet();
    }
    const settlements = await settlementsOnChain(demoChain);
    const after = await Promise.all(buyers.map((b) => balanceOf(demoChain, b.address)));
    await service.stop();
    // One desk per data folder: the processes sharing one are one desk to the person, with one ledger.
    const desks: DeskEvidence[] = folders(lanes).map((first) => {
      const sharing = lanes.filter((lane) => lane.dataDir === first.dataDir);
      return {
        ...first.evidence,
        name: sharing.map((lane) => lane.name).join('+'),
        kills: sharing.reduce((n, lane) => n + lane.evidence.kills, 0),
        damaged: sharing.flatMap((lane) => lane.evidence.damaged),
        capBreaches: sharing.flatMap((lane) => lane.evidence.capBreaches),
        capChecks: sharing.reduce((n, lane) => n + lane.evidence.capChecks, 0),
        ...readDesk(first.dataDir),
        delivered: first.proxy.delivered,
      };
    });
    const invariants = checkInvariants({
      desks,
      buyers: buyers.map((b, i) => ({ ...b, after: after[i]! })),
      settlements,
      caps: {
        perPurchase: PER_PURCHASE_CAP,
        daily: dailyCap,
      },
      service: {
        kills: service.kills,
        damaged: service.damaged,
        replays: [...new Set(lanes.map((lane) => lane.proxy))].flatMap((proxy) => proxy.replays),
        storeFile: service.storeFile,
      },
    });
    if (teamEvidence) invariants.push(...checkTeamInvariants(teamEvidence, desks, settlements));
    const violations = invariants.reduce((n, inv) => n + inv.violations.length, 0);
    // The evidence of a violation stays for whoever reproduces it: desk.db files, service.db (the team's
    // cluster goes: its rows are in the report).
    keep = violations > 0;
    if (keep) log(`evidence kept in ${root}`);
    return {
      seed: options.seed,
      purchases: done,
      outcomes,
      faults,
      deskKills: lanes.reduce((n, lane) => n + lane.evidence.kills, 0),
      serviceKills: service.kills,
      pgCrashes: team?.pgCrashes ?? 0,
      invariants,
      violations,
      durationMs: Date.now() - started,
      stopReason: stopReason.value,
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    if (!keep) rmSync(root, { recursive: true, force: true });
  }
}

/** The first lane of each data folder. */
function folders(lanes: Lane[]): Lane[] {
  return lanes.filter((lane, index) => lanes.findIndex((other) => other.dataDir === lane.dataDir) === index);
}
