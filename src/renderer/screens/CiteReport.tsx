/**
 * "Cite this report" (decision 0049): the citation core writes (report.export as bibtex or csl-json), copied
 * for a manuscript or saved as a file a reference manager imports.
 */
import { useState } from 'react';
import { download } from '../download';
import { useRpcMutation } from '../rpc/context';
import { ErrorLine } from '../components/States';
import { copyText } from '../components/CopyButton';
import { reportText } from '../text/report';

export function CiteReport(props: { id: string; serviceUrl: string }) {
  const [copied, setCopied] = useState(false);
  const cite = useRpcMutation('report.export');
  const citation = (format: 'bibtex' | 'csl-json') =>
    cite.mutateAsync({ id: props.id, serviceUrl: props.serviceUrl, format });
  return (
    // A menu that opens under the toolbar: the toolbar stays one row at 1280 px, and the summary is a
    // control the keyboard reaches and opens with Enter or Space.
    <details className="cite-menu">
      <summary>{reportText('cite')}</summary>
      <div className="cite-actions" role="group" aria-label={reportText('citeGroup')}>
        <button
          type="button"
          onClick={() => void citation('bibtex').then((file) => copyText(file.content).then(setCopied))}
        >
          {copied ? reportText('bibtexCopied') : reportText('copyBibtex')}
        </button>
        <button type="button" onClick={() => void citation('bibtex').then(download)}>
          {reportText('saveBibtex')}
        </button>
        <button type="button" onClick={() => void citation('csl-json').then(download)}>
          {reportText('saveCsl')}
        </button>
        <ErrorLine error={cite.error} />
      </div>
    </details>
  );
}
