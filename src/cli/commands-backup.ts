/**
 * `intel-desk backup` and `intel-desk restore --from FILE`: copies of the library in backups/. `intel-desk
 * restore` alone brings back from the service what the wallet bought there, after signing in with it.
 */
import type { DeskCore } from '../core';
import { restoredSentences } from '../shared/restore-text';
import { requireNamedFile } from './files';
import { count, UsageError, type Output } from './output';

const MB = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export async function backup(desk: DeskCore, out: Output): Promise<void> {
  const taken = await desk.handlers['library.backup']({});
  const status = await desk.handlers['library.backups']({});
  out.result(
    { ...taken, kept: status.count },
    () =>
      `Backed up the library to ${taken.file} (${MB(taken.bytes)}); ${count(status.count, 'backup')} kept in ${status.folder}.`,
  );
}

export async function restore(desk: DeskCore, out: Output, from: string | undefined): Promise<void> {
  if (!from) return restorePurchases(desk, out);
  requireNamedFile(from, 'backup file');
  const restored = await desk.handlers['library.restore']({ from });
  out.result(
    restored,
    () =>
      `Restored the library from ${from}: ${count(restored.reports, 'report')}. The library as it was is kept in ${restored.safetyCopy.file}.`,
  );
}

async function restorePurchases(desk: DeskCore, out: Output): Promise<void> {
  const step = await desk.handlers['library.restorePurchases']({});
  // Only a wallet in the app's window signs step by step; the CLI always holds its key.
  if (step.status !== 'done') throw new UsageError('restore needs a key this run can sign with');
  out.result(step.summary, () => restoredSentences(step.summary).join('\n'));
}

/**
 * After a damaged library was replaced at start (by a backup, or by an empty one), what is still missing comes
 * from the service when this run can sign in with the wallet; otherwise the person is told how. One line.
 */
export async function restoreAfterRecovery(desk: DeskCore): Promise<string> {
  const status = await desk.handlers['wallet.status']({});
  if (!status.unlocked)
    return 'Run `intel-desk restore` with the wallet that bought them to bring back from the service what is still missing.';
  try {
    const step = await desk.handlers['library.restorePurchases']({});
    if (step.status !== 'done') throw new Error('the wallet must sign in the app');
    const { summary } = step;
    return `Signed in to ${summary.serviceUrl}: ${count(summary.reports, 'more report')} from ${count(summary.restoredPurchases, 'purchase')} came back from the service.`;
  } catch (error) {
    return `Could not restore purchases from the service (${error instanceof Error ? error.message : String(error)}); run \`intel-desk restore\` when it can be reached.`;
  }
}
