/**
 * `intel-desk backup` and `intel-desk restore --from FILE`: copies of the library in backups/. `intel-desk
 * restore` alone brings back from the service what the wallet bought there, after signing in with it.
 */
import { createInterface } from 'node:readline/promises';
import type { DeskCore } from '../core';
import { megabytes } from '../shared/bytes';
import { restoredBackupSentences, restoredSentences } from '../shared/restore-text';
import { requireNamedFile } from './files';
import { count, UsageError, type Output } from './output';

export async function backup(desk: DeskCore, out: Output): Promise<void> {
  const taken = await desk.handlers['library.backup']({});
  const status = await desk.handlers['library.backups']({});
  out.result(
    { ...taken, kept: status.count },
    () =>
      `Backed up the library to ${taken.file} (${megabytes(taken.bytes)}); ${count(status.count, 'backup')} kept in ${status.folder}.`,
  );
}

/**
 * A file from elsewhere than backups/ may come from anyone: restored only with --yes, or after a yes at the
 * terminal. A script without --yes is refused rather than left waiting.
 */
export async function confirmOutside(
  file: string,
  folder: string,
  yes: boolean,
  streams: { input: NodeJS.ReadableStream & { isTTY?: boolean }; output: NodeJS.WritableStream } = {
    input: process.stdin,
    output: process.stderr,
  },
): Promise<void> {
  if (yes) return;
  if (streams.input.isTTY !== true)
    throw new UsageError(
      `${file} is outside the backups folder (${folder}); add --yes to restore from it. Nothing was changed.`,
    );
  const prompt = createInterface({ input: streams.input, output: streams.output });
  try {
    const answer = await prompt.question(
      `${file} is not in the backups folder (${folder}). Restore the library from it? Only do so if you know where it came from. [y/N] `,
    );
    if (!/^\s*y(es)?\s*$/i.test(answer)) throw new UsageError('Not restored; nothing was changed.');
  } finally {
    prompt.close();
  }
}

export async function restore(
  desk: DeskCore,
  out: Output,
  from: string | undefined,
  yes: boolean,
): Promise<void> {
  if (!from) return restorePurchases(desk, out);
  requireNamedFile(from, 'backup file');
  const pick = await desk.handlers['library.pickRestoreFile']({ file: from });
  if (pick.outsideBackups)
    await confirmOutside(pick.file, (await desk.handlers['library.backups']({})).folder, yes);
  const restored = await desk.handlers['library.restore']({
    picked: pick.picked,
    ...(pick.outsideBackups ? { confirmedOutside: true } : {}),
  });
  out.result(restored, () => restoredBackupSentences(restored).join('\n'));
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
