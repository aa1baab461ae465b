/** The contract's report domain (src/shared/rpc/report.ts): one report, its labels, a diff and an export. */
import type { RpcHandlers } from '../../shared/rpc';
import type { LibraryReports } from '../library/reports';
import type { ReportLabelStore } from '../library/report-labels';

export const reportHandlers = (
  reports: LibraryReports,
  labels: ReportLabelStore,
): Pick<
  RpcHandlers,
  'report.labels' | 'report.tag' | 'report.note' | 'report.get' | 'report.export' | 'report.diff'
> => ({
  'report.labels': async ({ id, serviceUrl }) => labels.get(reports.ownedService(id, serviceUrl), id),
  'report.tag': async ({ id, serviceUrl, action, tag }) => {
    const service = reports.ownedService(id, serviceUrl);
    return action === 'add' ? labels.addTag(service, id, tag) : labels.removeTag(service, id, tag);
  },
  'report.note': async ({ id, serviceUrl, note }) =>
    labels.setNote(reports.ownedService(id, serviceUrl), id, note),
  'report.get': async ({ id, serviceUrl }) => reports.get(id, serviceUrl ?? null),
  'report.export': ({ id, serviceUrl, format }) => reports.export(id, serviceUrl ?? null, format),
  'report.diff': async ({ a, b }) => reports.diff(a, b),
});
