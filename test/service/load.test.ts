/**
 * Issue 6: the reference service under bounded load, loopback only. Every run sends a fixed number of requests
 * with a fixed concurrency and a per-request timeout; what is checked is correctness under load (no 5xx, every
 * answer valid JSON of the right shape, each payment settled once, balances moved by exactly the charges), not
 * speed. Throughput is printed for information only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parseAbiItem, type Address, type Hex } from 'viem';
import type { ZodType } from 'zod';
import { startStack, type Stack } from '../../src/service/stack';
import {
  bundleSchema,
  errorBodySchema,
  paidSuccessSchema,
  paymentChallengeSchema,
  reportMenuSchema,
  settlementResponseSchema,
  shelfListSchema,
  type ReportMenu,
} from '../../src/shared/wire';
import { buyer, signAuthorization, tokenBalance, v1Payment, v2Payment } from './helpers';

const REQUEST_TIMEOUT_MS = 15_000;
const BUYERS = 8;

let stack: Stack;
let menus: ReportMenu[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 24, minReportsPerHandle: 2, maxReportsPerHandle: 12 },
    buyerCount: BUYERS,
  });
  const shelf = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
  menus = await Promise.all(
    shelf.entries.map(async (entry) =>
      reportMenuSchema.parse(
        await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${entry.username}`)).json(),
      ),
    ),
  );
});
afterAll(async () => {
  await stack?.stop();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  headers: Headers;
  ms: number;
}

async function send(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, {
    headers: { Accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
    headers: response.headers,
    ms: performance.now() - started,
  };
}

/** Runs every task with at most `limit` in flight; answers keep the order of the tasks. */
async function bounded<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await tasks[i]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function parseJson(answer: Answer, label: string): unknown {
  expect(answer.contentType, label).toMatch(/^application\/json/);
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new Error(`${label}: answer is not JSON: ${answer.text.slice(0, 200)}`);
  }
}

function summary(label: string, answers: Answer[], ms: number): string {
  const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return `${label}: ${answers.length} requests in ${Math.round(ms)} ms (${Math.round((answers.length / ms) * 1000)}/s), p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

interface Probe {
  url: string;
  headers?: Record<string, string>;
  status: number;
  schema: ZodType;
  check?: (body: unknown, answer: Answer) => void;
}

/** Every kind of answer the free side gives: shelf, menus, challenges, and each of its error bodies. */
function freeProbes(): Probe[] {
  const base = stack.baseUrl;
  const reports = `${base}/api/intel/reports`;
  const errorIs = (error: string) => (body: unknown) => expect((body as { error: string }).error).toBe(error);
  const probes: Probe[] = [{ url: `${base}/api/intel/list`, status: 200, schema: shelfListSchema }];
  for (const menu of menus) {
    const name = menu.username;
    const upTo = menu.reports.at(-2)!.createdAt;
    const menuMatches = (body: unknown) => {
      const got = body as ReportMenu;
      expect(got.username).toBe(name);
      expect(got.reports.map((r) => r.id)).toEqual(menu.reports.map((r) => r.id));
    };
    const counts = (n: number) => (body: unknown, answer: Answer) => {
      expect((body as { extensions: { reportCount: number } }).extensions.reportCount).toBe(n);
      const header = Buffer.from(answer.headers.get('payment-required') ?? '', 'base64').toString('utf8');
      expect(JSON.parse(header)).toEqual(body);
    };
    probes.push(
      { url: `${reports}?username=${name}`, status: 200, schema: reportMenuSchema, check: menuMatches },
      {
        url: `${reports}?username=%40${name.toUpperCase()}`,
        status: 200,
        schema: reportMenuSchema,
        check: menuMatches,
      },
      {
        url: `${reports}?username=${name}&select=all`,
        status: 402,
        schema: paymentChallengeSchema,
        check: counts(menu.reportCount),
      },
      {
        url: `${reports}?username=${name}&select=range&to=${upTo}`,
        status: 402,
        schema: paymentChallengeSchema,
        check: counts(menu.reports.filter((r) => r.createdAt <= upTo).length),
      },
      {
        url: `${reports}?username=${name}&select=range`,
        status: 400,
        schema: errorBodySchema,
        check: errorIs('range_requires_from_to_or_ids'),
      },
      {
        url: `${reports}?username=${name}&select=range&ids=rpt_none`,
        status: 404,
        schema: errorBodySchema,
        check: errorIs('no_matching_reports'),
      },
      {
        url: `${base}/api/intel/bundle?username=${name}`,
        status: 401,
        schema: errorBodySchema,
        check: errorIs('library_secret_required'),
      },
      {
        url: `${base}/api/intel/bundle?username=${name}`,
        headers: { 'X-Library-Secret': stack.librarySecret },
        status: 200,
        schema: bundleSchema,
      },
    );
  }
  probes.push(
    { url: reports, status: 400, schema: errorBodySchema, check: errorIs('missing_username') },
    {
      url: `${reports}?username=%3Cscript%3E`,
      status: 400,
      schema: errorBodySchema,
      check: errorIs('invalid_username'),
    },
    {
      url: `${reports}?username=nobody_here`,
      status: 404,
      schema: errorBodySchema,
      check: errorIs('unknown_handle'),
    },
    { url: `${base}/api/nothing`, status: 404, schema: errorBodySchema, check: errorIs('not_found') },
  );
  return probes;
}

async function hitFree(count: number, concurrency: number): Promise<Answer[]> {
  const probes = freeProbes();
  const tasks = Array.from({ length: count }, (_, i) => async () => {
    const probe = probes[i % probes.length]!;
    const answer = await send(probe.url, probe.headers);
    const label = `${probe.url} (${answer.status})`;
    expect(answer.status, label).toBeLessThan(500);
    expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).toBe(probe.status);
    const body = parseJson(answer, label);
    const parsed = probe.schema.safeParse(body);
    expect(parsed.success, `${label}: ${parsed.error?.message ?? ''}`).toBe(true);
    probe.check?.(body, answer);
    return answer;
  });
  return bounded(tasks, concurrency);
}

const authorizationUsed = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);
const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

async function authorizationState(from: Address, nonce: Hex): Promise<boolean> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'authorizationState',
    args: [from, nonce],
  })) as boolean;
}

function nonceStates(): Map<string, number> {
  const db = new Database(path.join(stack.dataDir, 'service.db'), { readonly: true });
  try {
    const rows = db
      .prepare<[], { state: string; n: number }>(
        'SELECT state, COUNT(*) AS n FROM payment_nonces GROUP BY state',
      )
      .all();
    return new Map(rows.map((row) => [row.state, row.n]));
  } finally {
    db.close();
  }
}

describe('free routes under load', () => {
  it('answer thousands of mixed requests with no 5xx and only valid JSON of the right shape', async () => {
    const started = performance.now();
    const answers = await hitFree(2400, 48);
    console.info(summary('free routes', answers, performance.now() - started));
    expect(answers).toHaveLength(2400);
  }, 45_000);
});

describe('paid routes with concurrent buyers', () => {
  it('settle every payment exactly once and move balances by exactly the charges, while free traffic runs', async () => {
    const purchasesPerBuyer = 5;
    const headerForms = ['X-402-Payment', 'X-Payment', 'PAYMENT-SIGNATURE', 'X-Payment v1'] as const;
    // Each purchase asks the 402 first and pays what it says (spec 5.3), on routes of every kind.
    const plans = await Promise.all(
      Array.from({ length: BUYERS * purchasesPerBuyer }, async (_, i) => {
        const menu = menus[i % menus.length]!;
        const name = menu.username;
        const query = [
          `select=all`,
          `select=range&ids=${menu.reports[0]!.id}`,
          `select=range&from=${menu.reports.at(-1)!.createdAt}&to=${menu.reports[0]!.createdAt}`,
          `select=range&ids=${menu.reports.map((r) => r.id).join(',')}&from=${menu.reports[1]!.createdAt}`,
        ][i % 4];
        const url = `${stack.baseUrl}/api/intel/reports?username=${name}&${query}`;
        const challenge = paymentChallengeSchema.parse(JSON.parse((await send(url)).text));
        const amount = BigInt(challenge.accepts[0]!.amount);
        const buyerIndex = i % BUYERS;
        const signed = await signAuthorization(stack, buyerIndex, amount);
        const form = headerForms[Math.floor(i / BUYERS) % headerForms.length]!;
        const header =
          form === 'X-Payment v1'
            ? { 'X-Payment': v1Payment(signed) }
            : { [form]: v2Payment(stack, signed, amount) };
        return { url, amount, buyerIndex, signed, header, reportCount: challenge.extensions?.reportCount };
      }),
    );
    const owners = Array.from({ length: BUYERS }, (_, i) => buyer(stack, i).address);
    const before = await Promise.all(owners.map((owner) => tokenBalance(stack, owner)));
    const payeeBefore = await tokenBalance(stack, stack.payTo);
    const statesBefore = nonceStates();

    const started = performance.now();
    const [paid, free] = await Promise.all([
      bounded(
        plans.map((plan) => () => send(plan.url, plan.header)),
        plans.length,
      ),
      hitFree(600, 16),
    ]);
    console.info(summary('paid, settled on chain', paid, performance.now() - started));

    const transactions = new Set<string>();
    paid.forEach((answer, i) => {
      const plan = plans[i]!;
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      const body = paidSuccessSchema.parse(parseJson(answer, plan.url));
      expect(body.reportCount).toBe(plan.reportCount);
      expect(body.chargedUsd).toBeCloseTo(Number(plan.amount) / 1e6, 9);
      const receipt = settlementResponseSchema.parse(
        JSON.parse(Buffer.from(answer.headers.get('x-payment-response') ?? '', 'base64').toString('utf8')),
      );
      expect(receipt).toMatchObject({ success: true, payer: owners[plan.buyerIndex] });
      transactions.add(receipt.transaction);
    });
    expect(transactions.size).toBe(plans.length);
    expect(free.every((answer) => answer.status < 500)).toBe(true);

    for (let b = 0; b < BUYERS; b++) {
      const charged = plans.filter((p) => p.buyerIndex === b).reduce((sum, p) => sum + p.amount, 0n);
      expect(await tokenBalance(stack, owners[b]!)).toBe(before[b]! - charged);
    }
    const total = plans.reduce((sum, p) => sum + p.amount, 0n);
    expect(await tokenBalance(stack, stack.payTo)).toBe(payeeBefore + total);
    for (const plan of plans) {
      expect(await authorizationState(owners[plan.buyerIndex]!, plan.signed.authorization.nonce)).toBe(true);
    }
    // The service's own nonce book agrees: every payment settled, none left half-way.
    const statesAfter = nonceStates();
    expect((statesAfter.get('settled') ?? 0) - (statesBefore.get('settled') ?? 0)).toBe(plans.length);
    expect(statesAfter.get('reserved') ?? 0).toBe(0);
  }, 50_000);
});

describe('one signed payment sent many times at once', () => {
  it('settles once: one 200, the rest 409 payment_already_used, and the token moves once', async () => {
    const copies = 24;
    const rounds = await Promise.all(
      [0, 1, 2].map(async (buyerIndex) => {
        const account = buyer(stack, buyerIndex);
        const signed = await signAuthorization(stack, buyerIndex, 10_000n);
        const v2 = v2Payment(stack, signed, 10_000n);
        const forms: Record<string, string>[] = [
          { 'X-402-Payment': v2 },
          { 'X-Payment': v2 },
          { 'PAYMENT-SIGNATURE': v2 },
          { 'X-Payment': v1Payment(signed) },
        ];
        // The copies also aim at different one-report resources: a nonce pays for one request, whichever.
        const urls = menus.map(
          (menu) =>
            `${stack.baseUrl}/api/intel/reports?username=${menu.username}&select=range&ids=${menu.reports[0]!.id}`,
        );
        const before = await tokenBalance(stack, account.address);
        // cacheTime 0: the shared client caches the block number (4 s) from the settlements of earlier tests.
        const block = await stack.chain.clients.publicClient.getBlockNumber({ cacheTime: 0 });
        return { account, signed, before, block, forms, urls };
      }),
    );
    const payeeBefore = await tokenBalance(stack, stack.payTo);
    const answers = await Promise.all(
      rounds.map((round) =>
        Promise.all(
          Array.from({ length: copies }, (_, i) =>
            send(round.urls[i % round.urls.length]!, round.forms[i % round.forms.length]),
          ),
        ),
      ),
    );

    for (const [r, round] of rounds.entries()) {
      const statuses = answers[r]!.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(copies - 1);
      for (const answer of answers[r]!.filter((a) => a.status === 409)) {
        expect(errorBodySchema.parse(parseJson(answer, '409')).error).toBe('payment_already_used');
      }
      expect(await tokenBalance(stack, round.account.address)).toBe(round.before - 10_000n);
      const publicClient = stack.chain.clients.publicClient;
      const used = await publicClient.getLogs({
        address: stack.asset,
        event: authorizationUsed,
        args: { authorizer: round.account.address, nonce: round.signed.authorization.nonce },
        fromBlock: round.block + 1n,
      });
      expect(used).toHaveLength(1);
      const moved = await publicClient.getLogs({
        address: stack.asset,
        event: transfer,
        args: { from: round.account.address },
        fromBlock: round.block + 1n,
      });
      expect(moved.map((log) => log.args.value)).toEqual([10_000n]);
    }
    expect(await tokenBalance(stack, stack.payTo)).toBe(payeeBefore + 3n * 10_000n);
  }, 45_000);
});
