/**
 * The sealed payments of decision 0022 on their own: the migration that adds them to an existing ledger, the
 * seal on disk, and what is never handed back (past validBefore, another purchase's payment, a broken seal).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentPayload } from '@x402/core/types';
import { openDeskDb } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { KeptPayments } from '../../src/core/ledger/kept-payments';
import { PurchaseLedger } from '../../src/core/ledger/purchases';
import { LocalSealer } from '../../src/core/wallet/sealing';
import { deskDbAtVersion, tempDir } from './helpers';
import { PAYMENT_IDENTIFIER, isValidPaymentId } from '@x402/extensions/payment-identifier';
import { paymentIdFor } from '../../src/core/payments/authorization';
import { PAYMENT_IDENTIFIER_KEY } from '../../src/core/ledger/payment-id';

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const PAYER = '0x1111111111111111111111111111111111111111';
const NONCE = `0x${'ab'.repeat(32)}`;
const SIGNATURE = `0x${'cd'.repeat(65)}`;
const VALID_BEFORE = 2_000_000_000;

function payment(id: string | null, nonce = NONCE): PaymentPayload {
  return {
    x402Version: 2,
    resource: { url: 'http://127.0.0.1:1/api/intel/reports?username=a&select=all' },
    accepted: {
      scheme: 'exact',
      network: 'eip155:31337',
      asset: '0x2222222222222222222222222222222222222222',
      amount: '10000',
      payTo: '0x3333333333333333333333333333333333333333',
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    },
    payload: {
      signature: SIGNATURE,
      authorization: {
        from: PAYER,
        to: '0x3333333333333333333333333333333333333333',
        value: '10000',
        validAfter: '0',
        validBefore: String(VALID_BEFORE),
        nonce,
      },
    },
    ...(id ? { extensions: { 'payment-identifier': { info: { required: false, id } } } } : {}),
  };
}

function setUp(version?: number) {
  const dir = tempDir('desk-kept-');
  dirs.push(dir);
  const file = path.join(dir.dir, 'desk.db');
  if (version !== undefined) {
    const old = deskDbAtVersion(file, version);
    old
      .prepare(
        `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer,
           pay_to, nonce, valid_before, quote_json, state, created_at, updated_at)
         VALUES ('old-purchase-0001', 'http://a.example', 'someone', '/r', 1, '10000', 'eip155:8453', '0xa',
           '0xb', '0xc', '0x1', 0, '{}', 'in_doubt', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      )
      .run();
    old.close();
  }
  const { db } = openDeskDb(file);
  let now = (VALID_BEFORE - 100) * 1000;
  const kept = new KeptPayments(db, new LocalSealer(path.join(dir.dir, 'local.key'), undefined), () => now);
  const ledger = new PurchaseLedger(db, () => new Date(now));
  const row = (id: string) => {
    ledger.insertSigned({
      id,
      serviceUrl: 'http://127.0.0.1:1',
      handle: 'a',
      resource: '/api/intel/reports?username=a&select=all',
      reportCount: 1,
      amount: 10_000n,
      network: 'eip155:31337',
      asset: '0x2222222222222222222222222222222222222222',
      payer: PAYER,
      payTo: '0x3333333333333333333333333333333333333333',
      nonce: NONCE,
      validBefore: BigInt(VALID_BEFORE),
      quoteJson: '{}',
      createdAt: new Date(now).toISOString(),
    });
    return ledger.get(id)!;
  };
  return { db, kept, ledger, row, setNow: (ms: number) => (now = ms) };
}

describe('kept payments', () => {
  it('are added to a ledger of the previous version, which keeps its purchases', () => {
    const { db } = setUp(MIGRATIONS.length - 1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT id, state FROM purchases').all()).toEqual([
      { id: 'old-purchase-0001', state: 'in_doubt' },
    ]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM kept_payments').get()).toEqual({ n: 0 });
    db.close();
  });

  it('are sealed, handed back byte for byte, and only a payment that carries an id is kept', () => {
    const { db, kept, row } = setUp();
    const purchase = row('purchase-with-an-id-0001');
    kept.keep(purchase.id, payment(purchase.id), BigInt(VALID_BEFORE));
    const sealed = db.prepare('SELECT sealed FROM kept_payments').pluck().get() as string;
    expect(sealed).not.toContain(SIGNATURE.slice(2));
    expect(JSON.stringify(kept.open(purchase))).toBe(JSON.stringify(payment(purchase.id)));

    const other = row('purchase-without-id-0002');
    kept.keep(other.id, payment(null), BigInt(VALID_BEFORE));
    expect(kept.open(other)).toBeNull();
    db.close();
  });

  it('are never handed back past validBefore, for another nonce, or from a broken seal, and are deleted', () => {
    const { db, kept, row, setNow } = setUp();
    const count = () => db.prepare('SELECT COUNT(*) FROM kept_payments').pluck().get();
    const late = row('purchase-late-00001');
    kept.keep(late.id, payment(late.id), BigInt(VALID_BEFORE));
    const foreign = row('purchase-foreign-0001');
    kept.keep(foreign.id, payment(foreign.id, `0x${'ef'.repeat(32)}`), BigInt(VALID_BEFORE));
    expect(kept.open(foreign)).toBeNull();
    const broken = row('purchase-broken-0001');
    kept.keep(broken.id, payment(broken.id), BigInt(VALID_BEFORE));
    db.prepare(`UPDATE kept_payments SET sealed = '{"local":{}}' WHERE purchase_id = ?`).run(broken.id);
    expect(kept.open(broken)).toBeNull();
    expect(count()).toBe(1);
    setNow(VALID_BEFORE * 1000);
    expect(kept.open(late)).toBeNull();
    expect(count()).toBe(0);
    db.close();
  });

  it('are deleted when the purchase completes or fails', () => {
    const { db, kept, ledger, row } = setUp();
    const done = row('purchase-done-000001');
    kept.keep(done.id, payment(done.id), BigInt(VALID_BEFORE));
    const failed = row('purchase-failed-00001');
    kept.keep(failed.id, payment(failed.id), BigInt(VALID_BEFORE));
    ledger.complete(done.id, []);
    ledger.setState(failed.id, 'failed', { error: 'no' });
    expect(db.prepare('SELECT COUNT(*) FROM kept_payments').pluck().get()).toBe(0);
    db.close();
  });

  it("use the SDK's key, and a ledger id the extension would refuse becomes a valid id derived from it", () => {
    expect(PAYMENT_IDENTIFIER_KEY).toBe(PAYMENT_IDENTIFIER);
    const uuid = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(paymentIdFor(uuid, isValidPaymentId)).toBe(uuid);
    const derived = paymentIdFor('short', isValidPaymentId);
    expect(isValidPaymentId(derived)).toBe(true);
    expect(paymentIdFor('short', isValidPaymentId)).toBe(derived);
  });
});
