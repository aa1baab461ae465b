/** What a restore of purchases brought back, in the sentences the CLI prints and Settings shows. */
import type { RestoreSummary } from './rpc';
import { plural } from './words';

const purchases = (n: number) => plural(n, 'purchase');

export function restoredSentences(summary: RestoreSummary): string[] {
  const lines = [
    `Signed in to ${summary.serviceUrl} as ${summary.address}: the service lists ${purchases(summary.purchases)} by this wallet.`,
    `Brought back ${plural(summary.reports, 'report')} from ${purchases(summary.restoredPurchases)}; ${purchases(summary.alreadyHeld)} already in the library.`,
  ];
  if (summary.notOnChain > 0)
    lines.push(
      `${purchases(summary.notOnChain)} not confirmed on chain (no chain RPC is set for their network, or it did not answer): kept as the service describes them, outside the spending caps and totals. Restore again with a chain RPC set to confirm them.`,
    );
  if (summary.differsFromReceipt > 0)
    lines.push(
      `${purchases(summary.differsFromReceipt)} not stored: their reports differ from the receipts this library holds.`,
    );
  if (summary.refused > 0) lines.push(`${purchases(summary.refused)} not stored.`);
  for (const problem of summary.problems) lines.push(`${problem.transaction}: ${problem.reason}`);
  return lines;
}
