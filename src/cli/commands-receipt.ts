/** receipt and purchases --csv: a purchase's evidence, checked on chain on request, and the ledger as CSV. */
import { DeskError, type DeskCore } from '../core';
import { receiptFields, serviceNamedOtherText, type Receipt } from '../shared/receipt';
import { terminalText, UsageError, type Output } from './output';

function verificationText(receipt: Receipt): string {
  const v = receipt.verification;
  if (!receipt.paid) return 'nothing paid (read with the library secret)';
  if (v === null) return 'not checked (add --verify to check on chain)';
  const other = serviceNamedOtherText(v);
  const note = other === null ? '' : ` ${other}`;
  if (v.status === 'verified') return `VERIFIED on chain: block ${v.blockNumber} at ${v.blockTime}.${note}`;
  if (v.status === 'mismatch') {
    const differs = v.checks
      .filter((c) => !c.ok)
      .map((c) => `${c.name}: expected ${c.expected}, chain has ${c.found ?? 'nothing'}`);
    return `DOES NOT MATCH the chain (${differs.join('; ')}).${note}`;
  }
  return v.message;
}

export function receiptText(receipt: Receipt): string {
  const rows: [string, string][] = [
    // A terminal shows no empty explorer row: the transaction line already says what there is.
    ...receiptFields(receipt)
      .filter((field) => field.name !== 'explorer' || field.value !== null)
      .map((field): [string, string] => [field.name, field.value ?? '—']),
    ['on chain', verificationText(receipt)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    ...rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`),
    `reports (${receipt.reports.length}, SHA-256 as delivered):`,
    ...receipt.reports.map(
      (r) => `  ${r.id}  ${r.sha256 ?? 'answer not kept'}${r.inLibrary ? '' : '  (not in library)'}`,
    ),
  ].join('\n');
}

/**
 * The purchase a receipt is asked for by: its id, or the transaction that settled it (what `buy` and
 * `purchases` show beside the id), found in the ledger.
 */
async function purchaseIdOf(desk: DeskCore, named: string): Promise<string> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(named)) return named;
  const { purchases } = await desk.handlers['purchases.list']({});
  const found = purchases.find((p) => p.txHash?.toLowerCase() === named.toLowerCase());
  if (found) return found.id;
  throw new DeskError(
    'purchase_unknown',
    `No purchase in this desk's ledger was settled in transaction ${named}; \`intel-desk purchases\` lists the purchases with their transactions.`,
    'usage',
  );
}

export async function receipt(
  desk: DeskCore,
  out: Output,
  named: string,
  options: { verify: boolean; format: string | undefined },
): Promise<void> {
  const purchaseId = await purchaseIdOf(desk, named);
  if (options.verify) out.progress('checking the payment on chain…');
  if (options.format === undefined) {
    const result = await desk.handlers['receipt.get']({ purchaseId, verify: options.verify });
    out.result(result, () => receiptText(result));
    if (result.verification && result.verification.status !== 'verified') process.exitCode = 4;
    return;
  }
  if (options.format !== 'json' && options.format !== 'pdf')
    throw new UsageError('receipt --format is json or pdf');
  if (options.format === 'pdf' && !out.json && process.stdout.isTTY) {
    throw new UsageError(
      `refusing to write PDF bytes to a terminal; redirect to a file: intel-desk receipt ${terminalText(purchaseId)} --format pdf > receipt.pdf`,
    );
  }
  const file = await desk.handlers['receipts.export']({
    purchaseIds: [purchaseId],
    format: options.format,
    verify: options.verify,
  });
  if (out.json) out.result(file, () => '');
  else if (file.encoding === 'base64') process.stdout.write(Buffer.from(file.content, 'base64'));
  else process.stdout.write(file.content);
}

export async function purchasesCsv(
  desk: DeskCore,
  period: { from?: string | undefined; to?: string | undefined },
): Promise<void> {
  const file = await desk.handlers['receipts.export']({ ...period, format: 'csv' });
  process.stdout.write(file.content);
}
