/**
 * Every parser at the network edge, fed random and mutated bodies: it answers with a typed DeskError or a
 * valid value, never a crash, and never a signature.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/core/client/service-client';
import { DeskError } from '../../src/core/errors';
import { quoteFromChallenge } from '../../src/core/payments/quote';
import { paymentChallengeSchema, type PaymentChallenge } from '../../src/shared/wire';
import { decodePayment } from '../../src/service/payment/decode';

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

/** Replaces one leaf somewhere in a JSON value with an arbitrary JSON value. */
function mutate(value: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[(path[0] ?? 0) % keys.length]!;
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...value };
  copy[key] = mutate((value as Record<string, unknown>)[key], path.slice(1), replacement);
  return copy;
}

describe('challenge validation', () => {
  it('accepts the well-formed Base challenge', () => {
    const quote = quoteFromChallenge(validChallenge, {
      demo: false,
      resourcePath: '/api/intel/reports?username=a&select=all',
      expectedReportCount: 2,
    });
    expect(quote.amount).toBe(20_000n);
  });

  it('never throws anything but a DeskError for mutated challenges, and only accepts consistent ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.jsonValue({ maxDepth: 2 }),
        (path, replacement) => {
          const candidate = mutate(validChallenge, path, replacement);
          const parsed = paymentChallengeSchema.safeParse(candidate);
          if (!parsed.success) return;
          try {
            const quote = quoteFromChallenge(parsed.data, {
              demo: false,
              resourcePath: '/api/intel/reports?username=a&select=all',
              expectedReportCount: 2,
            });
            expect(quote.amount).toBe(
              BigInt(Math.round(quote.unitPriceUsd * 1e6)) * BigInt(quote.reportCount),
            );
            expect(quote.network).toBe('eip155:8453');
            expect(quote.asset).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
          } catch (error) {
            expect(error).toBeInstanceOf(DeskError);
          }
        },
      ),
      { numRuns: 500 },
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
        { numRuns: 150 },
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
      { numRuns: 500 },
    );
  });
});
