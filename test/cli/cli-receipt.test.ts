/**
 * `intel-desk receipt` and `purchases --csv` against the reference service and anvil: a purchase's evidence
 * checked against the token's own events, and a ledger record that names another transaction caught.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView, PurchasesView, ShelfView } from '../../src/shared/rpc';
import type { Receipt } from '../../src/shared/receipt';
import { tempDir } from '../core/helpers';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let handle: string;
let lastBuy: Run;

function cli(args: string[]): Promise<Run> {
  return runCli(args, stackEnv(stack, data.dir));
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function purchaseIds(): Promise<string[]> {
  const view = parsed<PurchasesView>(await cli(['purchases', '--json']));
  return view.purchases.map((p) => p.id);
}

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  data = tempDir('desk-cli-receipt-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  handle = parsed<ShelfView>(await cli(['list', '--json'])).entries[0]!.username;
  const menu = parsed<MenuView>(await cli(['menu', handle, '--json']));
  const [first, second, third] = menu.reports.map((r) => r.id) as [string, string, string];
  for (const ids of [`${first},${second}`, third]) {
    const bought = await cli(['buy', handle, '--ids', ids, '--yes', '--key-file', keyFile]);
    expect(bought.code, bought.stderr).toBe(0);
    lastBuy = bought;
  }
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk receipt', () => {
  it('verifies a purchase against the chain and hashes each report as delivered', async () => {
    const [latest] = await purchaseIds();
    const run = await cli(['receipt', latest!, '--verify', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const receipt = parsed<Receipt>(run);
    const buyer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    expect(receipt).toMatchObject({
      purchaseId: latest,
      handle,
      state: 'completed',
      paid: true,
      payer: buyer,
      network: 'eip155:31337',
      explorerUrl: null,
      verification: { status: 'verified' },
    });
    expect(receipt.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(receipt.verification?.checks.map((c) => [c.name, c.ok])).toEqual([
      ['chain', true],
      ['token', true],
      ['payer', true],
      ['payee', true],
      ['amount', true],
      ['nonce', true],
    ]);
    expect(receipt.challenge).toMatchObject({ x402Version: 2, accepts: [{ payTo: receipt.payee }] });
    expect(receipt.authorization?.validAfter).toMatch(/^\d+$/);
    expect(receipt.reports).toHaveLength(1);
    const report = receipt.reports[0]!;
    const stored = await cli(['export', report.id, '--format', 'json']);
    expect(report).toEqual({ id: report.id, sha256: sha256(stored.stdout.trimEnd()), inLibrary: true });

    const text = await cli(['receipt', latest!, '--verify']);
    expect(text.stdout).toMatch(/on chain\s+VERIFIED on chain: block \d+ at \d{4}-/);
    expect(text.stdout).toContain(`payer        ${buyer}`);
  });

  it('finds the settlement by its event: a wrong hash from the service leaves a genuine payment verified', async () => {
    const [latest, earlier] = await purchaseIds();
    const db = new Database(path.join(data.dir, 'desk.db'));
    const txOf = db.prepare('SELECT tx_hash FROM purchases WHERE id = ?').pluck();
    const [settlement, earlierTx] = [txOf.get(latest) as string, txOf.get(earlier) as string];
    const named = db.prepare('UPDATE purchases SET tx_hash = ? WHERE id = ?');
    try {
      // Another purchase's settlement, and a hash that is no transaction at all.
      for (const wrong of [earlierTx, `0x${'ab'.repeat(32)}`]) {
        named.run(wrong, latest);
        const run = await cli(['receipt', latest!, '--verify', '--json']);
        expect(run.code, run.stderr).toBe(0);
        expect(parsed<Receipt>(run).verification).toMatchObject({
          status: 'verified',
          transaction: settlement,
          serviceNamedOther: wrong,
        });
        const text = await cli(['receipt', latest!, '--verify']);
        expect(text.code).toBe(0);
        expect(text.stdout).toMatch(/on chain\s+VERIFIED on chain: block \d+/);
        expect(text.stdout).toContain(
          `The service named a different transaction (${wrong}); the settlement on chain is ${settlement}.`,
        );
        expect(text.stdout).not.toContain('DOES NOT MATCH');
      }
    } finally {
      named.run(settlement, latest);
      db.close();
    }
    const right = parsed<Receipt>(await cli(['receipt', latest!, '--verify', '--json']));
    expect(right.verification).toMatchObject({ status: 'verified', serviceNamedOther: null });
  });

  it('says what differs when the settlement found on chain is not what the ledger recorded', async () => {
    const [latest] = await purchaseIds();
    const db = new Database(path.join(data.dir, 'desk.db'));
    const amountOf = db.prepare('SELECT amount FROM purchases WHERE id = ?').pluck();
    const recorded = amountOf.get(latest) as string;
    const setAmount = db.prepare('UPDATE purchases SET amount = ? WHERE id = ?');
    try {
      setAmount.run('20000', latest);
      const run = await cli(['receipt', latest!, '--verify']);
      expect(run.code).toBe(4);
      expect(run.stdout).toContain('DOES NOT MATCH the chain');
      expect(run.stdout).toMatch(/amount: expected 20000, chain has 10000/);
      expect(run.stdout).not.toContain('The service named a different transaction');
    } finally {
      setAmount.run(recorded, latest);
      db.close();
    }
  });

  it('is reached from what buy and purchases print: the purchase id, or the transaction', async () => {
    const [latest] = await purchaseIds();
    const { txHash } = parsed<Receipt>(await cli(['receipt', latest!, '--json']));
    expect(lastBuy.stdout).toContain(`bought 1 report for $0.01: purchase ${latest}, transaction ${txHash}`);
    expect(lastBuy.stdout).toContain(`its receipt: intel-desk receipt ${latest}`);
    const listed = await cli(['purchases']);
    expect(listed.stdout).toMatch(/state\s+purchase\s+transaction/);
    expect(listed.stdout).toMatch(new RegExp(`completed\\s+${latest}\\s+${txHash}`));
    expect(listed.stdout).toContain('intel-desk receipt <purchase or transaction>');
    const byTransaction = await cli([
      'receipt',
      txHash!.toUpperCase().replace('0X', '0x'),
      '--verify',
      '--json',
    ]);
    expect(byTransaction.code, byTransaction.stderr).toBe(0);
    expect(parsed<Receipt>(byTransaction)).toMatchObject({
      purchaseId: latest,
      verification: { status: 'verified' },
    });
    const text = await cli(['receipt', txHash!]);
    expect(text.stdout).toContain(`purchase     ${latest}`);
    const unknown = await cli(['receipt', `0x${'cd'.repeat(32)}`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      `No purchase in this desk's ledger was settled in transaction 0x${'cd'.repeat(32)}`,
    );
  });

  it('writes a printable PDF and refuses an unknown purchase', async () => {
    const [, earlier] = await purchaseIds();
    const pdf = await cli(['receipt', earlier!, '--format', 'pdf']);
    expect(pdf.code).toBe(0);
    expect(pdf.stdout.startsWith('%PDF-')).toBe(true);
    const unknown = await cli(['receipt', 'pur_nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no purchase pur_nope');
  });

  it('exports a report with its receipt line and its charts drawn, shares in percent', async () => {
    const [latest] = await purchaseIds();
    const receipt = parsed<Receipt>(await cli(['receipt', latest!, '--json']));
    const md = await cli(['export', receipt.reports[0]!.id, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`Bought from ${stack.baseUrl} on `);
    expect(md.stdout).toContain(`paid in transaction ${receipt.txHash}`);
    expect(md.stdout).toMatch(
      /### Topic Share\n\n\| Label \| Share \| \|\n\| --- \| ---: \| --- \|\n\| [a-z ]+ \| \d+(\.\d)?% \| █+/,
    );
    expect(md.stdout).toMatch(/- Created: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);
  });

  it('lists purchases as CSV for an expense report, in a period', async () => {
    const ids = await purchaseIds();
    const run = await cli(['purchases', '--csv']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'date,purchase,service,handle,reports,charged_usd,state,network,payer,payee,transaction',
    );
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(ids);
    expect(lines[1]).toMatch(
      /,0\.01,completed,eip155:31337,0x[0-9a-fA-F]{40},0x[0-9a-fA-F]{40},0x[0-9a-f]{64}$/,
    );
    const none = await cli(['purchases', '--csv', '--to', '2000-01-01']);
    expect(none.stdout.trimEnd().split('\r\n')).toHaveLength(1);
  });
});
