/** What a restore brought back (purchases from the service, or a backup file), in the sentences the CLI prints and Settings shows. */
import type { RestoreSummary, RestoreView } from './rpc';
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

/** What a restore from a backup file kept and took: the file brings reports, never the desk's own settings. */
export function restoredBackupSentences(restored: RestoreView): string[] {
  const were = (n: number) => (n === 1 ? 'was' : 'were');
  const added =
    restored.purchasesAdded > 0
      ? `; ${purchases(restored.purchasesAdded)} only the backup knew ${were(restored.purchasesAdded)} added to them`
      : '';
  const lines = [
    `Restored the library from ${restored.file}: ${plural(restored.reports, 'report')}.`,
    `This desk's settings, spending caps, payee pins and chain RPC were kept, not taken from the backup; its purchase records were kept as they are${added}.`,
  ];
  if (restored.requestsDropped > 0)
    lines.push(
      `${plural(restored.requestsDropped, 'purchase request')} from an assistant waiting in the backup ${were(restored.requestsDropped)} not carried over.`,
    );
  lines.push(`The library as it was is kept in ${restored.safetyCopy.file}.`);
  return lines;
}
