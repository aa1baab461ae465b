/** The payment rules on plain data: no chain, no service, no database. */
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../src/core/base/errors';
import {
  enforcePayment,
  judgePayment,
  payeeStatus,
  type Consent,
  type PaymentFacts,
} from '../../src/core/payments/policy';

const PINNED = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

/** A payment of $0.05 to the pinned payee, caps $1 per purchase and $5 a day, nothing spent yet. */
function facts(overrides: Partial<PaymentFacts> = {}): PaymentFacts {
  return {
    amount: 50_000n,
    payTo: PINNED,
    pinnedPayTo: PINNED,
    caps: { perPurchaseCapUnits: '1000000', dailyCapUnits: '5000000' },
    spent: 0n,
    handle: { name: 'Someone', budget: null, spentThisMonth: 0n },
    ...overrides,
  };
}

function consent(overrides: Partial<Consent> = {}, of: PaymentFacts = facts()): Consent {
  return { confirmedAmount: of.amount.toString(), ...overrides };
}

function refusal(action: () => void): DeskError {
  try {
    action();
  } catch (error) {
    if (error instanceof DeskError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('payeeStatus', () => {
  it('is new before the first purchase, pinned for the same address in any case, changed otherwise', () => {
    expect(payeeStatus(null, OTHER)).toBe('new');
    expect(payeeStatus(PINNED, PINNED.toUpperCase().replace('0X', '0x'))).toBe('pinned');
    expect(payeeStatus(PINNED, OTHER)).toBe('changed');
  });
});

describe('judgePayment', () => {
  it('says what the quote shows: within both caps at the cap itself, over them one unit past', () => {
    expect(judgePayment(facts({ amount: 1_000_000n }))).toMatchObject({
      overPurchaseCap: false,
      overDailyCap: false,
      payToStatus: 'pinned',
      perPurchaseCap: 1_000_000n,
      dailyCap: 5_000_000n,
    });
    expect(judgePayment(facts({ amount: 1_000_001n })).overPurchaseCap).toBe(true);
    expect(judgePayment(facts({ spent: 4_950_000n })).overDailyCap).toBe(false);
    expect(judgePayment(facts({ spent: 4_950_001n })).overDailyCap).toBe(true);
  });
});

describe('enforcePayment', () => {
  it('lets a confirmed payment within the rules through', () => {
    expect(() => enforcePayment(facts(), consent())).not.toThrow();
    expect(() => enforcePayment(facts({ pinnedPayTo: null, payTo: OTHER }), consent())).not.toThrow();
  });

  it('refuses an amount other than the one confirmed', () => {
    const error = refusal(() => enforcePayment(facts(), consent({ confirmedAmount: '40000' })));
    expect(error.code).toBe('amount_not_confirmed');
    expect(error.message).toBe('You confirmed $0.04 but the payment would be $0.05; nothing was signed.');
  });

  it('refuses over the per-purchase cap with the cap, amount and spend, unless accepted', () => {
    const over = facts({ amount: 2_500_000n, spent: 300_000n });
    const error = refusal(() => enforcePayment(over, consent({}, over)));
    expect(error).toMatchObject({
      code: 'over_purchase_cap',
      kind: 'refused',
      details: { cap: '1000000', amount: '2500000', spent: '300000' },
    });
    expect(error.message).toContain('$2.50 is above your per-purchase cap of $1.00');
    expect(() => enforcePayment(over, consent({ acceptOverCap: true }, over))).not.toThrow();
  });

  it('refuses over the daily cap counting what was already spent, unless accepted', () => {
    const over = facts({ spent: 4_990_000n });
    const error = refusal(() => enforcePayment(over, consent({}, over)));
    expect(error).toMatchObject({
      code: 'over_daily_cap',
      details: { cap: '5000000', amount: '50000', spent: '4990000' },
    });
    expect(() => enforcePayment(over, consent({ acceptOverCap: true }, over))).not.toThrow();
  });

  it("refuses over the handle's monthly budget with its handle, unless accepted; none set is never over", () => {
    const handle = { name: 'Someone', budget: 100_000n, spentThisMonth: 50_000n };
    expect(judgePayment(facts({ handle })).overHandleBudget).toBe(false);
    const over = facts({ handle: { ...handle, spentThisMonth: 50_001n } });
    expect(judgePayment(over).overHandleBudget).toBe(true);
    const error = refusal(() => enforcePayment(over, consent({}, over)));
    expect(error).toMatchObject({
      code: 'over_handle_budget',
      kind: 'refused',
      details: { cap: '100000', amount: '50000', spent: '50001', handle: 'Someone' },
    });
    expect(error.message).toContain('over its monthly budget of $0.10');
    expect(() => enforcePayment(over, consent({ acceptOverCap: true }, over))).not.toThrow();
    const none = facts({ handle: { name: 'Someone', budget: null, spentThisMonth: 10n ** 12n } });
    expect(judgePayment(none).overHandleBudget).toBe(false);
  });

  it('refuses a changed payee with both addresses, unless accepted; accepting caps does not accept it', () => {
    const moved = facts({ payTo: OTHER });
    const error = refusal(() => enforcePayment(moved, consent({ acceptOverCap: true })));
    expect(error).toMatchObject({ code: 'payee_changed', details: { pinned: PINNED, payTo: OTHER } });
    expect(() => enforcePayment(moved, consent({ acceptPayToChange: true }))).not.toThrow();
  });
});
