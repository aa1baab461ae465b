/**
 * Every parser at the network edge, fed random and mutated bodies: it answers with a typed DeskError or a
 * valid value, never a crash, and never a signature.
 */
import { describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/core/client/service-client';
import { DeskError } from '../../src/core/base/errors';
import { quoteFromChallenge } from '../../src/core/payments/quote';
import { paymentChallengeSchema, type PaymentChallenge } from '../../src/shared/wire';
import { decodePayment } from '../../src/service/payment/decode';
import { seeded } from './property-seed';

const validChallenge: PaymentChallenge = {
  x402Version: 2,
  error: 'Payment required',
  accepts: [
    {
      protocol: 'x402',
      version: 2,
      scheme: 'exact',
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      amount: '20000',
      payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    },
  ],
  extensions: {
    chainId: 8453,
    tokenDecimals: 6,
    unitPriceUsd: 0.01,
    reportCount: 2,
    select: 'all',
    resource: '/api/intel/reports?username=a&select=all',
  },
};

/** A value of the same JSON type as `leaf`, taken from `pool`, so the edited challenge mostly keeps its shape. */
interface Replacements {
  text: string;
  number: number;
  any: unknown;
}
function sameKind(leaf: unknown, pool: Replacements): unknown {
  if (typeof leaf === 'string') return pool.text;
  if (typeof leaf === 'number') return pool.number;
  return pool.any;
}

/**
 * Replaces one leaf of a JSON value, walking down by `path` (and by first keys once it runs out), with a value
 * of the leaf's own type when `typed`.
 */
function mutate(value: unknown, path: number[], pool: Replacements, typed: boolean): unknown {
  if (value === null || typeof value !== 'object') return typed ? sameKind(value, pool) : pool.any;
  const keys = Object.keys(value);
  if (keys.length === 0) return pool.any;
  const key = keys[(path[0] ?? 0) % keys.length]!;
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...value };
  copy[key] = mutate((value as Record<string, unknown>)[key], path.slice(1), pool, typed);
  return copy;
}

const RESOURCE = '/api/intel/reports?username=a&select=all';
const baseExpectations = { demo: false, resourcePath: RESOURCE, expectedReportCount: 2 };

/** Strings a hostile service might put in any field: numbers, addresses, URLs, networks, and plain junk. */
const hostileText = fc.oneof(
  fc.string(),
  fc.bigInt({ min: -(10n ** 31n), max: 10n ** 31n }).map(String),
  fc.stringMatching(/^0x[0-9a-fA-F]{0,41}$/),
  fc.constantFrom(
    'eip155:8453',
    'eip155:84532',
    'eip155:1',
    'eip155:31337',
    '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    '0x0000000000000000000000000000000000000000',
    '/api/intel/reports?select=all&username=a',
    '/api/intel/reports?username=b&select=all',
    'http://[',
    '//',
    'exact',
    'x402',
    'USD Coin',
    'USDC',
  ),
);
const hostileNumber = fc.oneof(
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(1, 2, 3, 6, 18, 0.01, 0.02, 8453, 84532, 300),
);

/** Checks an accepted quote against the challenge it came from and what the desk asked for. */
function expectConsistent(quote: ReturnType<typeof quoteFromChallenge>, challenge: PaymentChallenge) {
  const requirement = challenge.accepts[0]!;
  expect(quote.amount).toBe(quote.unitPrice * BigInt(quote.reportCount));
  expect(quote.amount).toBe(BigInt(requirement.amount));
  expect(quote.reportCount).toBe(2);
  expect(quote.payTo).toBe(getAddress(requirement.payTo));
  expect(quote.payTo).not.toBe('0x0000000000000000000000000000000000000000');
  expect(quote.resource).toBe(RESOURCE);
  expect(quote.network).toBe('eip155:8453');
  expect(quote.asset).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
  expect(quote.validitySeconds).toBeGreaterThanOrEqual(10);
  expect(quote.validitySeconds).toBeLessThanOrEqual(300);
}

describe('challenge validation', () => {
  it('accepts the well-formed Base challenge', () => {
    const quote = quoteFromChallenge(validChallenge, baseExpectations);
    expect(quote.amount).toBe(20_000n);
    expectConsistent(quote, validChallenge);
  });

  it('never throws anything but a DeskError for edited challenges that still pass the schema, and accepts only consistent ones', () => {
    let schemaValid = 0;
    let accepted = 0;
    const runs = 2000;
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 4 }),
        hostileText,
        hostileNumber,
        fc.jsonValue({ maxDepth: 2 }),
        fc.integer({ min: 0, max: 9 }),
        (path, text, number, any, dice) => {
          // Nine edits in ten keep the leaf's type, so they reach the checks behind the schema.
          const candidate = mutate(validChallenge, path, { text, number, any }, dice > 0);
          const parsed = paymentChallengeSchema.safeParse(candidate);
          if (!parsed.success) {
            // The service client refuses these at the edge (see 'service client against arbitrary bodies').
            expect(parsed.error.issues.length).toBeGreaterThan(0);
            return;
          }
          schemaValid++;
          try {
            const quote = quoteFromChallenge(parsed.data, baseExpectations);
            accepted++;
            expectConsistent(quote, parsed.data);
          } catch (error) {
            expect(error).toBeInstanceOf(DeskError);
            expect((error as DeskError).kind).toBe('refused');
          }
        },
      ),
      seeded(runs, 19),
    );
    // The checks behind the schema are what this property is about: most runs must reach them.
    expect(schemaValid).toBeGreaterThan(runs * 0.7);
    expect(accepted).toBeGreaterThan(0);
  });

  it('on generated well-formed challenges, refuses exactly the inconsistent count, amount, payee and resource', () => {
    const address = fc
      .stringMatching(/^[0-9a-f]{40}$/)
      .filter((hex) => !/^0+$/.test(hex))
      .map((hex) => `0x${hex}`);
    const username = fc.stringMatching(/^[a-z0-9_]{1,15}$/);
    const fault = fc.constantFrom(
      'none',
      'reordered_query',
      'amount',
      'count',
      'zero_payee',
      'bad_payee',
      'other_handle',
      'other_select',
      'other_path',
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 500 }),
        address,
        username,
        fc.constantFrom('all', 'latest'),
        fault,
        fc.integer({ min: 1, max: 1000 }),
        (unitBaseUnits, count, payTo, user, select, broken, delta) => {
          const resourcePath = `/api/intel/reports?username=${user}&select=${select}`;
          let announcedResource = resourcePath;
          let announcedCount = count;
          let amount = BigInt(unitBaseUnits) * BigInt(count);
          let announcedPayTo = payTo;
          if (broken === 'reordered_query')
            announcedResource = `/api/intel/reports?select=${select}&username=${user}`;
          if (broken === 'amount') amount += BigInt(delta);
          if (broken === 'count') {
            announcedCount = count + delta;
            amount = BigInt(unitBaseUnits) * BigInt(announcedCount);
          }
          if (broken === 'zero_payee') announcedPayTo = '0x0000000000000000000000000000000000000000';
          if (broken === 'bad_payee') announcedPayTo = `${payTo}00`;
          if (broken === 'other_handle')
            announcedResource = `/api/intel/reports?username=${user}x&select=${select}`;
          if (broken === 'other_select')
            announcedResource = `/api/intel/reports?username=${user}&select=${select === 'all' ? 'latest' : 'all'}`;
          if (broken === 'other_path')
            announcedResource = `/api/intel/bundle?username=${user}&select=${select}`;
          const challenge: PaymentChallenge = {
            ...validChallenge,
            accepts: [{ ...validChallenge.accepts[0]!, amount: amount.toString(), payTo: announcedPayTo }],
            extensions: {
              ...validChallenge.extensions,
              unitPriceUsd: unitBaseUnits / 1e6,
              reportCount: announcedCount,
              resource: announcedResource,
              // The stated selection must be the one asked for; 'latest' is no selection the schema knows.
              select: select === 'all' ? 'all' : undefined,
            },
          };
          expect(paymentChallengeSchema.safeParse(challenge).success).toBe(true);
          const run = () =>
            quoteFromChallenge(challenge, { demo: false, resourcePath, expectedReportCount: count });
          const expected = {
            amount: 'amount_mismatch',
            count: 'report_count_mismatch',
            zero_payee: 'invalid_pay_to',
            bad_payee: 'invalid_pay_to',
            other_handle: 'resource_mismatch',
            other_select: 'resource_mismatch',
            other_path: 'resource_mismatch',
          }[broken as string];
          if (expected === undefined) {
            const quote = run();
            expect(quote).toMatchObject({
              amount: BigInt(unitBaseUnits) * BigInt(count),
              reportCount: count,
              payTo: getAddress(payTo),
              resource: resourcePath,
            });
            return;
          }
          expect(run).toThrow(DeskError);
          try {
            run();
          } catch (error) {
            expect(error).toMatchObject({ code: expected, kind: 'refused' });
          }
        },
      ),
      seeded(1000, 19),
    );
  });
});

describe('service client against arbitrary bodies', () => {
  it('answers any body on any route with a value or a DeskError', async () => {
    let next: { status: number; body: string } = { status: 200, body: '{}' };
    const server = createServer((_req, res) => {
      res.writeHead(next.status, { 'Content-Type': 'application/json' });
      res.end(next.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new ServiceClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      attempts: 1,
      maxBytes: 4096,
    });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(200, 400, 402, 404, 409, 500),
          fc.oneof(fc.json(), fc.string(), fc.constant('x'.repeat(5000))),
          async (status, body) => {
            next = { status, body };
            for (const call of [
              () => client.list(),
              () => client.menu('someone'),
              () => client.challenge('/api/intel/reports?username=a&select=all'),
            ]) {
              try {
                await call();
              } catch (error) {
                expect(error).toBeInstanceOf(DeskError);
                expect((error as DeskError).message).not.toMatch(/at .*\.ts:\d+/);
              }
            }
          },
        ),
        seeded(150),
      );
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});

describe('payment header decoding on the service', () => {
  it('turns any header value into a decoded payment or a typed decode error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.base64String(),
          fc.json().map((json) => Buffer.from(json).toString('base64')),
        ),
        (value) => {
          try {
            const decoded = decodePayment('x-payment', value);
            expect([1, 2]).toContain(decoded.x402Version);
          } catch (error) {
            expect((error as Error).name).toBe('Error');
            expect(['invalid_payment_header', 'invalid_payment_payload']).toContain(
              (error as { code?: string }).code,
            );
          }
        },
      ),
      seeded(500),
    );
  });
});
