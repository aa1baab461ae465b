/** Someone saved first: base, theirs and mine side by side, merged where they agree, chosen where they clash. */
import { useState } from 'react';
import type { Bundle } from '../../shared/wire';
import { resolveConflict, threeWayMerge, type Conflict } from './merge';
import { theirChanges, type Change, type Json } from './paths';
import { ChangeList } from './ChangeList';
import { dateTime } from '../format';

const show = (value: Json | undefined) => (value === undefined ? '(absent)' : JSON.stringify(value, null, 1));

export function ConflictView(props: {
  base: Bundle;
  theirs: Bundle;
  mine: Bundle;
  onResolved: (merged: Bundle, theirs: Bundle) => void;
  onCancel: () => void;
}) {
  const [result] = useState(() =>
    threeWayMerge(
      props.base as unknown as Json,
      props.theirs as unknown as Json,
      props.mine as unknown as Json,
    ),
  );
  const [merged, setMerged] = useState<Json>(result.merged);
  const [choices, setChoices] = useState<Record<string, 'theirs' | 'mine'>>({});
  const choose = (conflict: Conflict, take: 'theirs' | 'mine') => {
    setMerged((current) => resolveConflict(current, conflict, take));
    setChoices((current) => ({ ...current, [conflict.entity]: take }));
  };
  const open = result.conflicts.filter((c) => !choices[c.entity]).length;
  // What was saved since, against the copy both started from, shown whole, clashing or not; what my copy
  // holds too is listed apart, never as theirs.
  const [changes] = useState(() => {
    const { only, shared } = theirChanges(
      props.base as unknown as Json,
      props.theirs as unknown as Json,
      props.mine as unknown as Json,
    );
    const real = (c: Change) => c.path !== 'gatheredAt';
    return { only: only.filter(real), shared: shared.filter(real) };
  });
  return (
    <section className="conflict" aria-labelledby="conflict-title" data-testid="dossier-conflict">
      <h2 id="conflict-title">This dossier was saved elsewhere since you opened it</h2>
      <p>
        The service&apos;s copy was gathered at {dateTime(props.theirs.gatheredAt)}; yours started from{' '}
        {dateTime(props.base.gatheredAt)}. Changes made on only one side are already combined.{' '}
        {result.conflicts.length === 0
          ? 'Nothing clashes.'
          : `${open} of ${result.conflicts.length} item(s) changed on both sides need your choice.`}
      </p>
      <h3>What they changed</h3>
      <ChangeList
        changes={changes.only}
        empty={
          changes.shared.length > 0
            ? 'Nothing that is not in your copy too.'
            : 'Nothing but the time it was gathered.'
        }
        label="What they changed"
        testId="their-changes"
      />
      {changes.shared.length > 0 ? (
        <>
          <h3>Saved already, as in your copy</h3>
          <p className="muted small">
            The same change is in your copy: yours, saved from another window, or made the same way by someone
            else. Nothing to choose.
          </p>
          <ChangeList
            changes={changes.shared}
            empty=""
            label="Saved already, as in your copy"
            testId="shared-changes"
          />
        </>
      ) : null}
      {result.conflicts.map((conflict) => (
        <fieldset key={conflict.entity} className="conflict-item">
          <legend className="mono">{conflict.entity}</legend>
          <div className="three-way">
            <figure>
              <figcaption>Base</figcaption>
              <pre tabIndex={0}>{show(conflict.base)}</pre>
            </figure>
            <figure>
              <figcaption>Theirs</figcaption>
              <pre tabIndex={0}>{show(conflict.theirs)}</pre>
            </figure>
            <figure>
              <figcaption>Mine</figcaption>
              <pre tabIndex={0}>{show(conflict.mine)}</pre>
            </figure>
          </div>
          <div className="toolbar">
            <button
              type="button"
              aria-pressed={choices[conflict.entity] === 'theirs'}
              onClick={() => choose(conflict, 'theirs')}
            >
              Keep theirs
            </button>
            <button
              type="button"
              aria-pressed={choices[conflict.entity] === 'mine'}
              onClick={() => choose(conflict, 'mine')}
            >
              Keep mine
            </button>
          </div>
        </fieldset>
      ))}
      <div className="toolbar">
        <button
          type="button"
          disabled={open > 0}
          onClick={() => props.onResolved(merged as unknown as Bundle, props.theirs)}
        >
          Use the merged dossier
        </button>
        <button type="button" onClick={props.onCancel}>
          Back to my copy
        </button>
      </div>
    </section>
  );
}
