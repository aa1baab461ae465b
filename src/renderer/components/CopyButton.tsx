/** Copies a value (a receipt, an address) and says so; the value itself stays visible next to it. */
import { useState } from 'react';

/**
 * The Clipboard API, or else the older copy command: Electron's window refuses every permission request,
 * which can include clipboard writes, while a copy from a selection needs none.
 */
export async function copyText(value: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = value;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

export function CopyButton(props: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="copy"
      aria-label={`${props.label}${state === 'copied' ? ' (copied)' : ''}`}
      onClick={() => void copyText(props.value).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
