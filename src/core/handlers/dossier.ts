/** The contract's dossier domain (src/shared/rpc/dossier.ts): dossier/dossiers.ts does the work. */
import type { RpcHandlers } from '../../shared/rpc';
import type { Dossiers } from '../dossier/dossiers';

export const dossierHandlers = (
  dossiers: Dossiers,
): Pick<RpcHandlers, 'dossier.open' | 'dossier.saveDraft' | 'dossier.discardDraft' | 'dossier.save'> => ({
  'dossier.open': ({ handle }) => dossiers.open(handle),
  'dossier.saveDraft': ({ handle, draft }) => dossiers.saveDraft(handle, draft),
  'dossier.discardDraft': async ({ handle }) => dossiers.discardDraft(handle),
  'dossier.save': ({ handle, bundle, baseGatheredAt }) => dossiers.save(handle, bundle, baseGatheredAt),
});
