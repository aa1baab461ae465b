/** How a purchase was settled is a column of its own, also for rows an earlier version wrote. */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDeskDb } from '../../src/core/db/open';
import { PurchaseLedger, purchaseView } from '../../src/core/ledger/purchases';
import { deskDbAtVersion, tempDir } from './helpers';

const insertRow = `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset,
    payer, pay_to, nonce, valid_before, quote_json, state, report_ids, created_at, updated_at)
  VALUES (@id, 'http://a.example', 'someone', '/r', 1, @amount, @network, @asset, @payer, @payTo, '', 0, '{}',
    'completed', '["r1"]', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;

describe('paid_with', () => {
  it('moves the library-secret marker of a version-4 ledger out of network and payer', () => {
    const data = tempDir('desk-paid-with-');
    const file = path.join(data.dir, 'desk.db');
    const old = deskDbAtVersion(file, 4);
    const insert = old.prepare(insertRow);
    insert.run({
      id: 'read',
      amount: '0',
      network: 'library secret',
      asset: '',
      payer: 'library secret',
      payTo: '',
    });
    insert.run({
      id: 'paid',
      amount: '10000',
      network: 'eip155:31337',
      asset: '0x00000000000000000000000000000000000000aa',
      payer: '0x00000000000000000000000000000000000000bb',
      payTo: '0x00000000000000000000000000000000000000cc',
    });
    old.close();

    const { db } = openDeskDb(file);
    try {
      const ledger = new PurchaseLedger(db, () => new Date());
      expect(purchaseView(ledger.get('read')!)).toMatchObject({
        paidWith: 'library_secret',
        network: '',
        payer: '',
        movedUnits: '0',
      });
      expect(purchaseView(ledger.get('paid')!)).toMatchObject({
        paidWith: 'payment',
        network: 'eip155:31337',
        payer: '0x00000000000000000000000000000000000000bb',
        movedUnits: '10000',
      });
    } finally {
      db.close();
      data.remove();
    }
  });

  it('records a new library-secret read with the column, nothing in network or payer', () => {
    const data = tempDir('desk-paid-with-');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    try {
      const ledger = new PurchaseLedger(db, () => new Date());
      ledger.insertFree(
        {
          id: 'free',
          serviceUrl: 'http://a.example',
          handle: 'someone',
          resource: '/r',
          reportCount: 1,
          quoteJson: '{}',
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        ['r1'],
      );
      const row = db
        .prepare<[], { paid_with: string; network: string; payer: string }>(
          "SELECT paid_with, network, payer FROM purchases WHERE id = 'free'",
        )
        .get();
      expect(row).toEqual({ paid_with: 'library_secret', network: '', payer: '' });
    } finally {
      db.close();
      data.remove();
    }
  });
});
