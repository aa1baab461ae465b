/** bundle get/put: the dossier as a JSON file, with the same conflict check as the app. */
import type { DeskCore } from '../core';
import { parseBundle } from '../core/dossier/bundle';
import { DeskError } from '../core/base/errors';
import { readJsonFile } from './files';
import type { Output } from './output';

export async function bundleGet(desk: DeskCore, handle: string): Promise<void> {
  const { bundle } = await desk.handlers['dossier.open']({ handle });
  process.stdout.write(`${JSON.stringify(bundle, null, 2)}\n`);
}

/** The file's own gatheredAt is the base: the save is refused if the service changed since it was fetched. */
export async function bundlePut(desk: DeskCore, out: Output, handle: string, file: string): Promise<void> {
  const bundle = parseBundle(readJsonFile(file, 'bundle file'), `file ${file}`);
  out.progress('checking what the service holds…');
  const answer = await desk.handlers['dossier.save']({ handle, bundle, baseGatheredAt: bundle.gatheredAt });
  if (answer.status === 'conflict') {
    throw new DeskError(
      'bundle_conflict',
      `The dossier changed on the service since ${bundle.gatheredAt} (now ${answer.theirs.gatheredAt}); fetch it again with \`bundle get\` and reapply your edits.`,
      'refused',
    );
  }
  if (answer.status === 'not_written') throw new DeskError('bundle_not_written', answer.message, 'refused');
  out.result(answer, () => `saved @${answer.bundle.username}, gatheredAt ${answer.bundle.gatheredAt}`);
}
