/** `intel-desk backup` and `intel-desk restore --from FILE`: copies of the library in backups/. */
import type { DeskCore } from '../core';
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
  if (!from)
    throw new UsageError(
      'restore needs --from FILE (a backup, such as one in the backups folder of the data folder); restoring purchases from the service is not available yet',
    );
  requireNamedFile(from, 'backup file');
  const restored = await desk.handlers['library.restore']({ from });
  out.result(
    restored,
    () =>
      `Restored the library from ${from}: ${count(restored.reports, 'report')}. The library as it was is kept in ${restored.safetyCopy.file}.`,
  );
}
