/** `export --handle H|--all --format md-folder --out DIR`: the library as a folder of Markdown files. */
import type { DeskCore } from '../core';
import { UsageError, type Output } from './output';
import type { Values } from './options';

const USAGE = 'export --handle H --format md-folder --out DIR, or export --all --format md-folder --out DIR';

export async function exportFolder(
  desk: DeskCore,
  out: Output,
  values: Values,
  args: string[],
): Promise<void> {
  if (values.format !== 'md-folder') throw new UsageError(`--out goes with --format md-folder: ${USAGE}`);
  if (values.out === undefined || values.out.trim() === '')
    throw new UsageError(`missing --out DIR: ${USAGE}`);
  if (args.length > 0)
    throw new UsageError(`md-folder exports a handle or the library, not a report id: ${USAGE}`);
  if ((values.handle === undefined) === !values.all)
    throw new UsageError(`give either --handle H or --all: ${USAGE}`);
  out.progress('writing the reports…');
  const view = await desk.handlers['library.exportFolder']({
    dir: values.out,
    ...(values.handle !== undefined ? { handle: values.handle } : {}),
  });
  out.result(
    view,
    () =>
      `wrote ${view.reports} report${view.reports === 1 ? '' : 's'} of ${view.handles} handle${view.handles === 1 ? '' : 's'} to ${view.dir}`,
  );
}
