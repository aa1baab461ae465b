/** What a restore of purchases brought back, in the sentences the CLI prints and Settings shows. */
import type { RestoreSummary } from './rpc';

export function restoredSentences(summary: RestoreSummary): string[] {
  const lines = [
    `Signed in to ${summary.serviceUrl} as ${summary.address}: the service lists ${summary.purchases} purchase(s) by this wallet.`,
    `Brought back ${summary.reports} report(s) from ${summary.restoredPurchases} purchase(s); ${summary.alreadyHeld} purchase(s) were already in the library.`,
  ];
  if (summary.differsFromReceipt > 0)
    lines.push(
      `${summary.differsFromReceipt} purchase(s) were not stored: their reports differ from the receipts this library holds.`,
    );
  if (summary.refused > 0) lines.push(`${summary.refused} purchase(s) were not stored.`);
  for (const problem of summary.problems) lines.push(`${problem.transaction}: ${problem.reason}`);
  return lines;
}
