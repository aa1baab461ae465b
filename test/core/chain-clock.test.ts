/**
 * The clock logic to the millisecond: readings from a `Date` header and a block timestamp, the window an
 * authorization gets, where it stops absorbing skew, and what the refusal says. Then the service's clock read
 * off a real HTTP answer on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chainSample,
  MIN_REMAINING_SECONDS,
  paymentWindow,
  VALID_AFTER_LEAD_SECONDS,
} from '../../src/core/payments/chain-clock';
import { sampleFromSeconds, serviceSample, type ClockSample } from '../../src/core/client/clock-sample';
import { ServiceClient } from '../../src/core/client/service-client';
import { DeskError } from '../../src/core/base/errors';
import { seeded } from './property-seed';

/** A desk clock on a whole second, so window edges are exact. */
const NOW = 1_795_000_000_000;
const S = 1000;
const exact = (source: ClockSample['source'], offsetMs: number): ClockSample => ({
  source,
  lowMs: offsetMs,
  highMs: offsetMs,
});

function skewRefusal(action: () => unknown): DeskError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).code).toBe('clock_skew');
    expect((error as DeskError).kind).toBe('refused');
    return error as DeskError;
  }
  throw new Error('expected clock_skew');
}

describe('readings', () => {
  it('bounds a whole-second reading by the round trip that fetched it', () => {
    // Read 1_795_000_100 s by a request sent at NOW + 99.5 s and answered at NOW + 99.7 s (desk clock).
    expect(sampleFromSeconds('chain', NOW / S + 100, NOW + 99_500, NOW + 99_700)).toEqual({
      source: 'chain',
      lowMs: 300,
      highMs: 1_500,
    });
    expect(chainSample(BigInt(NOW / S - 150), NOW, NOW + 20)).toEqual({
      source: 'chain',
      lowMs: -150_020,
      highMs: -149_000,
    });
  });

  it("reads the service's clock from an IMF-fixdate Date header and ignores anything else", () => {
    const date = new Date(NOW + 180_000).toUTCString();
    expect(serviceSample(new Headers({ date }), NOW - 40, NOW + 10)).toEqual({
      source: 'service',
      lowMs: 179_990,
      highMs: 181_040,
    });
    for (const bad of [
      '',
      'yesterday',
      'Sunday, 06-Nov-94 08:49:37 GMT',
      'Sun Nov  6 08:49:37 1994',
      'Sun, 06 Nov 1994 08:49:37 +0000',
      'Xyz, 99 Foo 2026 99:99:99 GMT',
    ]) {
      expect(serviceSample(new Headers({ date: bad }), NOW, NOW)).toBeNull();
    }
    expect(serviceSample(new Headers(), NOW, NOW)).toBeNull();
  });

  it('adds the Age a cache on the way kept the answer, and ignores a malformed one', () => {
    const date = new Date(NOW - 25_000).toUTCString();
    expect(serviceSample(new Headers({ date, age: '25' }), NOW, NOW)).toEqual({
      source: 'service',
      lowMs: 0,
      highMs: 1_000,
    });
    for (const age of ['-5', '2.5', 'soon', '9999999999']) {
      expect(serviceSample(new Headers({ date, age }), NOW, NOW)?.lowMs).toBe(-25_000);
    }
  });
});

describe('the payment window', () => {
  it('opens a little before the earliest clock and closes the validity after it', () => {
    expect(paymentWindow(NOW + 400, [], 300)).toEqual({
      validAfter: BigInt(NOW / S - VALID_AFTER_LEAD_SECONDS),
      validBefore: BigInt(NOW / S + 300),
    });
    // An idle chain: its latest block 150 s old. The window starts there, so the block is inside it.
    const idle = paymentWindow(NOW, [exact('service', -700), exact('chain', -150_000)], 300);
    expect(idle).toEqual({ validAfter: BigInt(NOW / S - 210), validBefore: BigInt(NOW / S + 150) });
    // This computer 3 minutes ahead of the service and the chain.
    const ahead = paymentWindow(NOW, [exact('service', -180_000), exact('chain', -181_000)], 300);
    expect(ahead).toEqual({ validAfter: BigInt(NOW / S - 241), validBefore: BigInt(NOW / S + 119) });
    // This computer 3 minutes behind: it is the earliest clock.
    const behind = paymentWindow(NOW, [exact('service', 180_000), exact('chain', 179_000)], 300);
    expect(behind).toEqual({ validAfter: BigInt(NOW / S - 60), validBefore: BigInt(NOW / S + 300) });
  });

  it(`absorbs clocks up to the validity less ${MIN_REMAINING_SECONDS} s apart, to the millisecond`, () => {
    const absorbable = (300 - MIN_REMAINING_SECONDS) * S;
    expect(paymentWindow(NOW, [exact('service', -absorbable)], 300).validBefore).toBe(
      BigInt(NOW / S + MIN_REMAINING_SECONDS),
    );
    expect(paymentWindow(NOW, [exact('chain', absorbable)], 300).validBefore).toBe(BigInt(NOW / S + 300));
    const refusal = skewRefusal(() => paymentWindow(NOW, [exact('service', -absorbable - 1)], 300));
    expect(refusal.details).toMatchObject({ apartMs: absorbable + 1, absorbableMs: absorbable });
    skewRefusal(() => paymentWindow(NOW, [exact('chain', absorbable + 1)], 300));
    // A short validity keeps half of itself to spare.
    expect(() => paymentWindow(NOW, [exact('service', 10_000)], 20)).not.toThrow();
    skewRefusal(() => paymentWindow(NOW, [exact('service', 10_001)], 20));
  });

  it("counts a reading's uncertainty against the window", () => {
    const reading = (lowMs: number, highMs: number): ClockSample => ({ source: 'service', lowMs, highMs });
    expect(() => paymentWindow(NOW, [reading(239_000, 240_000)], 300)).not.toThrow();
    skewRefusal(() => paymentWindow(NOW, [reading(239_000, 240_001)], 300));
  });

  it('is valid on every clock it was given, never further than the validity past any, or refuses', () => {
    const offset = fc.integer({ min: -400_000, max: 400_000 });
    const sample = fc
      .tuple(
        fc.constantFrom('service' as const, 'chain' as const),
        offset,
        fc.integer({ min: 0, max: 3_000 }),
      )
      .map(([source, lowMs, spread]) => ({ source, lowMs, highMs: lowMs + spread }));
    fc.assert(
      fc.property(
        fc.integer({ min: NOW - 10 ** 9, max: NOW + 10 ** 9 }),
        fc.array(sample, { maxLength: 2 }),
        fc.integer({ min: 10, max: 300 }),
        (now, samples, validity) => {
          const clocks = [
            { low: now, high: now },
            ...samples.map((s) => ({ low: now + s.lowMs, high: now + s.highMs })),
          ];
          const needed = Math.min(MIN_REMAINING_SECONDS, Math.floor(validity / 2));
          let window;
          try {
            window = paymentWindow(now, samples, validity);
          } catch (error) {
            expect((error as DeskError).code).toBe('clock_skew');
            const apart = Math.max(...clocks.map((c) => c.high)) - Math.min(...clocks.map((c) => c.low));
            expect(apart).toBeGreaterThan((validity - needed - 2) * S);
            return;
          }
          for (const clock of clocks) {
            // The token wants validAfter < block.timestamp < validBefore.
            expect(Number(window.validAfter) * S).toBeLessThan(clock.low);
            expect(Number(window.validBefore) * S).toBeGreaterThanOrEqual(clock.high + needed * S);
            expect(Number(window.validBefore) * S).toBeLessThanOrEqual(clock.low + validity * S);
          }
        },
      ),
      seeded(2_000),
    );
  });
});

describe('the refusal', () => {
  it('names the clock that is off, by how much, and what to do', () => {
    const desk = skewRefusal(() =>
      paymentWindow(NOW, [exact('service', -361_000), exact('chain', -362_000)], 300),
    );
    expect(desk.message).toBe(
      "This computer's clock is 6 min 2 s ahead of the service's clock and the chain's latest block; a payment " +
        'window of 300 s cannot be valid on all of them with 60 s to spare. Nothing was signed. Set this ' +
        "computer's clock right (automatic date and time) and buy again.",
    );
    const idle = skewRefusal(() =>
      paymentWindow(NOW, [exact('service', 500), exact('chain', -600_000)], 300),
    );
    expect(idle.message).toMatch(
      /^The chain's latest block is 10 min 1 s behind this computer's clock and the service's clock;.*no block for that long, or its RPC node lags/,
    );
    const service = skewRefusal(() =>
      paymentWindow(NOW, [exact('service', 300_000), exact('chain', 1_000)], 300),
    );
    expect(service.message).toMatch(
      /^The service's clock is 5 min ahead of this computer's clock and the chain's latest block;.*The service's clock is wrong/,
    );
    // Beside the service's clock alone, the desk's is the one a person can set.
    const alone = skewRefusal(() => paymentWindow(NOW, [exact('service', 400_000)], 300));
    expect(alone.message).toMatch(
      /^This computer's clock is 6 min 40 s behind the service's clock;.*Set this computer's clock right/,
    );
  });
});

describe("the service's clock over HTTP", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A service whose clock runs 5 minutes ahead of this one.
    server = createServer((_req, res) => {
      res.setHeader('Date', new Date(Date.now() + 300_000).toUTCString());
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ configured: true, entries: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is measured on every answer against the desk's own clock", async () => {
    const skewedDesk = () => Date.now() - 60_000;
    const client = new ServiceClient(url, { now: skewedDesk });
    expect(client.serviceClock()).toBeNull();
    await client.list();
    const sample = client.serviceClock();
    expect(sample?.source).toBe('service');
    // The service is 5 min ahead of the wall and the desk 1 min behind it: the reading holds the true 6 min,
    // give or take the header's whole second and the round trip.
    expect(sample!.lowMs).toBeLessThanOrEqual(360_000);
    expect(sample!.highMs).toBeGreaterThanOrEqual(360_000);
    expect(sample!.highMs - sample!.lowMs).toBeLessThan(1_500);
  });
});
