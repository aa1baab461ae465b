/** The dossier as raw JSON, applied only when it is valid; errors name their exact place. */
import { useState } from 'react';
import type { Bundle } from '../../shared/wire';
import { checkRawDossier } from './validate';

export function RawJson(props: { bundle: Bundle; onApply: (bundle: Bundle) => void }) {
  const [text, setText] = useState(() => JSON.stringify(props.bundle, null, 2));
  const check = checkRawDossier(text);
  return (
    <div className="dossier-section">
      <label htmlFor="dossier-raw">Raw JSON</label>
      <textarea
        id="dossier-raw"
        className="mono raw-json"
        rows={24}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {check.ok ? (
        <p className="ok-text">Valid dossier.</p>
      ) : (
        <p className="error-text" role="alert" data-testid="raw-error">
          Not valid at {check.where}: {check.message}
        </p>
      )}
      <div className="toolbar">
        <button type="button" disabled={!check.ok} onClick={() => check.ok && props.onApply(check.bundle)}>
          Apply JSON
        </button>
        <button type="button" onClick={() => setText(JSON.stringify(props.bundle, null, 2))}>
          Reset to the editor's copy
        </button>
      </div>
    </div>
  );
}
