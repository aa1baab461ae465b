/** Saved searches, and a person's tags and note on a report they own. */
import type { RpcHandlers } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';
import { DeskError } from '../base/errors';

/** The owned report's service: tags and notes are only for reports in the library. */
function ownedService(ctx: DeskContext, id: string, serviceUrl: string | undefined): string {
  const stored = ctx.snapshots.raw(id, serviceUrl ?? null, ctx.client().baseUrl);
  if (!stored) throw new DeskError('report_not_owned', `Report ${id} is not in your library.`, 'usage');
  return stored.serviceUrl;
}

export const libraryLabelHandlers = (
  ctx: DeskContext,
): Pick<
  RpcHandlers,
  | 'searches.list'
  | 'searches.save'
  | 'searches.rename'
  | 'searches.delete'
  | 'report.labels'
  | 'report.tag'
  | 'report.note'
> => {
  const { savedSearches: searches, labels } = ctx;
  return {
    'searches.list': async () => ({ searches: searches.list() }),
    'searches.save': async ({ name, query }) => searches.save(name, query),
    'searches.rename': async ({ id, name }) => searches.rename(id, name),
    'searches.delete': async ({ id }) => ({ deleted: searches.delete(id) }),
    'report.labels': async ({ id, serviceUrl }) => labels.get(ownedService(ctx, id, serviceUrl), id),
    'report.tag': async ({ id, serviceUrl, action, tag }) => {
      const service = ownedService(ctx, id, serviceUrl);
      return action === 'add' ? labels.addTag(service, id, tag) : labels.removeTag(service, id, tag);
    },
    'report.note': async ({ id, serviceUrl, note }) =>
      labels.setNote(ownedService(ctx, id, serviceUrl), id, note),
  };
};
