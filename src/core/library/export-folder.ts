/** `library.exportFolder`: the reports asked for, read one by one, written as a Markdown folder (md-folder.ts). */
import path from 'node:path';
import type { FolderExportView, LibraryItem } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import { markdownFolder, writeFolder, type FolderReport } from './md-folder';

export async function exportFolder(
  dir: string,
  handle: string | undefined,
  items: readonly LibraryItem[],
  read: (item: LibraryItem) => Promise<FolderReport>,
  now: () => Date = () => new Date(),
): Promise<FolderExportView> {
  if (items.length === 0) {
    throw new DeskError(
      'nothing_to_export',
      handle === undefined
        ? 'The library holds no reports yet, so there is nothing to export; nothing was written.'
        : `The library holds no reports of @${handle}, so there is nothing to export; nothing was written. Choose a handle the library lists.`,
      'usage',
    );
  }
  const reports: FolderReport[] = [];
  for (const item of items) reports.push(await read(item));
  const files = markdownFolder(reports, now().toISOString());
  writeFolder(dir, files);
  return {
    dir: path.resolve(dir),
    reports: reports.length,
    handles: new Set(files.map((file) => file.path.split('/')[0])).size,
  };
}
