/**
 * `intel-desk backup` and `intel-desk restore --from FILE`: copies of the library in backups/. `intel-desk
 * restore` alone brings back from the service what the wallet bought there, after signing in with it.
 */
import type { DeskCore } from '../core';
import type { RestoreSummary } from '../shared/rpc';
import { UsageError, type Output } from './output';

const MB = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export async function backup(desk: DeskCore, out: Output): Promise<void> {
  const taken = await desk.handlers['library.backup']({});
  const status = await desk.handlers['library.backups']({});
  out.result(
    { ...taken, kept: status.count },
    () =>
      `Backed up the library to ${taken.file} (${MB(taken.bytes)}); ${status.count} backup(s) kept in ${status.folder}.`,
  );
}

export async function restore(desk: DeskCore, out: Output, from: string | undefined): Promise<void> {
  if (!from) return restorePurchases(desk, out);
  const restored = await desk.handlers['library.restore']({ from });
  out.result(
    restored,
    () =>
      `Restored the library from ${from}: ${restored.reports} report(s). The library as it was is kept in ${restored.safetyCopy.file}.`,
  );
}

async function restorePurchases(desk: DeskCore, out: Output): Promise<void> {
  const step = await desk.handlers['library.restorePurchases']({});
  // Only a wallet in the app's window signs step by step; the CLI always holds its key.
  if (step.status !== 'done') throw new UsageError('restore needs a key this run can sign with');
  out.result(step.summary, () => restoredText(step.summary));
}

export function restoredText(summary: RestoreSummary): string {
  const lines = [
    `Signed in to ${summary.serviceUrl} as ${summary.address}: the service lists ${summary.purchases} purchase(s) by this wallet.`,
    `Brought back ${summary.reports} report(s) from ${summary.restoredPurchases} purchase(s); ${summary.alreadyHeld} purchase(s) were already in the library.`,
  ];
  if (summary.differsFromReceipt > 0)
    lines.push(
      `${summary.differsFromReceipt} purchase(s) were not stored: their reports differ from the receipts this library holds.`,
    );
  if (summary.refused > 0) lines.push(`${summary.refused} purchase(s) were not stored:`);
  for (const problem of summary.problems) lines.push(`  ${problem.transaction}: ${problem.reason}`);
  return lines.join('\n');
}
