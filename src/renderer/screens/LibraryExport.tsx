/**
 * Library → Export as Markdown (decision 0049): in the desktop app, the handle shown (or the whole library)
 * goes to a folder the person chooses in the system's dialog, one Markdown file per report with YAML front
 * matter. Browser mode has no folder dialog, so the button is not offered there (the CLI's export does it).
 */
import { useMutation } from '@tanstack/react-query';
import { errorMessage, folderExporter } from '../rpc/client';
import { libraryText as t } from '../text/library';
import { number } from '../format';

export function LibraryExport(props: { handle: string }) {
  const exporter = folderExporter();
  const run = useMutation({
    mutationFn: async (handle: string) => (exporter ? exporter(handle === '' ? undefined : handle) : null),
  });
  if (!exporter) return null;
  const done = run.data
    ? t('exported', {
        reports: run.data.reports === 1 ? t('oneReport') : t('reports', { count: number(run.data.reports) }),
        dir: run.data.dir,
      })
    : null;
  return (
    <>
      <button type="button" disabled={run.isPending} onClick={() => run.mutate(props.handle)}>
        {run.isPending
          ? t('exporting')
          : props.handle === ''
            ? t('exportAll')
            : t('exportHandle', { handle: props.handle })}
      </button>
      <span role="status" className="muted small">
        {run.isError ? errorMessage(run.error) : done}
      </span>
    </>
  );
}
