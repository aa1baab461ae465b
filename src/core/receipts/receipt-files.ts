/** Receipts and purchases as files a person keeps: JSON and a printable PDF of receipts, CSV of purchases. */
import type { ExportedFile } from '../../shared/rpc';
import { receiptFields, serviceNamedOtherText, type Receipt } from '../../shared/receipt';
import { pdfDocument, winAnsi, type Doc } from '../library/export-pdf';
import { unitsText } from '../../shared/money';
import { purchaseView, type PurchaseRow } from '../ledger/purchases';
import { partiesOf } from './receipt';

/** The days a file covers, for its name: first_to_last, or none. */
function span(createdAt: string[]): string {
  const days = createdAt.map((at) => at.slice(0, 10)).sort();
  return days.length === 0 ? 'none' : `${days[0]}_to_${days[days.length - 1]}`;
}

function period(receipts: Receipt[]): string {
  if (receipts.length === 1) return receipts[0]!.purchaseId;
  return span(receipts.map((r) => r.createdAt));
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, '_');

export function receiptsJson(receipts: Receipt[]): ExportedFile {
  return {
    filename: safeName(`receipts-${period(receipts)}.json`),
    mimeType: 'application/json',
    content: `${JSON.stringify({ receipts }, null, 2)}\n`,
    encoding: 'utf8',
  };
}

function verificationLine(receipt: Receipt): string {
  const v = receipt.verification;
  if (!receipt.paid) return 'Read with the library secret: nothing was paid.';
  if (v === null) return 'Not checked on chain in this export.';
  const other = serviceNamedOtherText(v);
  const note = other === null ? '' : ` ${other}`;
  if (v.status === 'verified') return `Verified on chain: block ${v.blockNumber}, ${v.blockTime}.${note}`;
  if (v.status === 'mismatch') {
    const differs = v.checks
      .filter((c) => !c.ok)
      .map((c) => `${c.name} (expected ${c.expected}, found ${c.found ?? 'nothing'})`);
    return `Does NOT match the chain: ${differs.join('; ')}.${note}`;
  }
  return v.message;
}

function receiptPage(doc: Doc, receipt: Receipt): void {
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(winAnsi(`Receipt: @${receipt.handle}`));
  doc.font('Helvetica').fontSize(10.5).moveDown(0.5);
  const lines: [string, string][] = [
    ...receiptFields(receipt).map((field): [string, string] => [
      field.label,
      field.value ?? (field.name === 'explorer' ? 'none (local chain)' : 'none'),
    ]),
    ['On chain', verificationLine(receipt)],
  ];
  for (const [label, value] of lines) {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(winAnsi(value));
  }
  doc.moveDown(0.5).font('Helvetica-Bold').text(`Reports delivered (${receipt.reports.length})`);
  doc.font('Courier').fontSize(8.5);
  for (const report of receipt.reports) {
    doc.text(
      winAnsi(
        `${report.id}  sha256 ${report.sha256 ?? 'not kept'}${report.inLibrary ? '' : '  (not in library)'}`,
      ),
    );
  }
  doc.font('Helvetica').fontSize(10.5);
}

export async function receiptsPdf(receipts: Receipt[]): Promise<ExportedFile> {
  const { doc, done } = pdfDocument(`Intel Desk receipts ${period(receipts)}`);
  receipts.forEach((receipt, i) => {
    if (i > 0) doc.addPage();
    receiptPage(doc, receipt);
  });
  if (receipts.length === 0) doc.text('No purchases in this period.');
  doc.end();
  return {
    filename: safeName(`receipts-${period(receipts)}.pdf`),
    mimeType: 'application/pdf',
    content: (await done).toString('base64'),
    encoding: 'base64',
  };
}

/** RFC 4180 quoting; a leading =, +, - or @ is neutralised so a spreadsheet never runs a cell as a formula. */
function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const CSV_COLUMNS = [
  'date',
  'purchase',
  'service',
  'handle',
  'reports',
  'charged_usd',
  'state',
  'network',
  'payer',
  'payee',
  'transaction',
] as const;

/** The ledger as CSV: read from the rows alone, with no receipt built (or checked on chain) for it. */
export function purchasesCsv(rows: PurchaseRow[]): ExportedFile {
  const lines = [
    CSV_COLUMNS.join(','),
    ...rows.map((row) => {
      const p = purchaseView(row);
      const parties = partiesOf(row);
      // Exact decimals, no currency sign: a spreadsheet reads the column as numbers.
      const charged = p.movedUnits === null ? `up to ${unitsText(p.amount)}` : unitsText(p.movedUnits);
      return [
        p.createdAt,
        p.id,
        row.service_url,
        p.handle,
        p.reportCount,
        charged,
        p.state,
        parties.network,
        parties.payer,
        parties.payee,
        p.txHash ?? '',
      ]
        .map(csvCell)
        .join(',');
    }),
  ];
  return {
    filename: safeName(`purchases-${span(rows.map((row) => row.created_at))}.csv`),
    mimeType: 'text/csv',
    content: `${lines.join('\r\n')}\r\n`,
    encoding: 'utf8',
  };
}
