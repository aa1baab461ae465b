import { describe, expect, it } from 'vitest';
import { paymentChallengeSchema, reportMenuSchema } from '../../src/shared/wire';

describe('wire schemas', () => {
  it('keep unknown fields and reject a menu without reports', () => {
    const menu = reportMenuSchema.parse({ username: 'a', reportCount: 0, reports: [], extra: { x: 1 } });
    expect(menu).toMatchObject({ extra: { x: 1 } });
    expect(reportMenuSchema.safeParse({ username: 'a', reportCount: 0 }).success).toBe(false);
  });

  it('take a stock x402 v2 challenge without the spec facts, and reject one without payment options', () => {
    expect(
      paymentChallengeSchema.safeParse({ x402Version: 2, error: 'Payment required', accepts: [] }).success,
    ).toBe(true);
    expect(paymentChallengeSchema.safeParse({ x402Version: 2, error: 'Payment required' }).success).toBe(
      false,
    );
  });
});
