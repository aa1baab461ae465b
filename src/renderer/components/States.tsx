/** The empty, loading and error states every screen shows the same way. */
import type { ReactNode } from 'react';
import { errorMessage } from '../rpc/client';
import { dateTime } from '../format';

export function Loading(props: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </div>
  );
}

export function ErrorMessage(props: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <p>{errorMessage(props.error)}</p>
      {props.onRetry ? (
        <button type="button" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/**
 * A failed action's message beside the control that failed (an export, a refresh), announced at once; nothing
 * while there is no error. An RpcCallError shows its message; a string is shown as it is.
 */
export function ErrorLine(props: { error: unknown; testId?: string }) {
  const { error } = props;
  if (error === null || error === undefined || error === '') return null;
  return (
    <p className="error-text" role="alert" data-testid={props.testId}>
      {typeof error === 'string' ? error : errorMessage(error)}
    </p>
  );
}

export function Empty(props: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{props.title}</p>
      {props.children}
    </div>
  );
}

export function StaleBanner(props: {
  stale: boolean;
  fetchedAt: string | null;
  reason?: string | undefined;
}) {
  if (!props.stale) return null;
  return (
    <p className="stale" role="status" data-testid="stale">
      Stale: offline copy from {props.fetchedAt ? dateTime(props.fetchedAt) : 'an earlier run'}
      {props.reason ? ` (${props.reason})` : ''}
    </p>
  );
}
