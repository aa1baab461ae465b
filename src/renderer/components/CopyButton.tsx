/** Copies a value (a receipt, an address) and says so; the value itself stays visible next to it. */
import { useState } from 'react';

export function CopyButton(props: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="copy"
      aria-label={`${props.label}${state === 'copied' ? ' (copied)' : ''}`}
      onClick={() =>
        void navigator.clipboard.writeText(props.value).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
