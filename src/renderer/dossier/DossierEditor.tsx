/**
 * One handle's dossier: structured and raw editing, a draft kept in core after every pause in typing, the
 * change against the service's copy before saving, and a three-way merge when someone else saved first.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Bundle } from '../../shared/wire';
import type { DossierView } from '../../shared/rpc';
import { useRpcMutation } from '../rpc/context';
import { plural } from '../format';
import { errorMessage } from '../rpc/client';
import { Dialog } from '../components/Dialog';
import { ChangeList } from './ChangeList';
import { ConflictView } from './ConflictView';
import { RawJson } from './RawJson';
import { EdgesEditor, PostsEditor, ProfileEditor, ReportsEditor } from './sections';
import { isOwnDraft, noteOwnDraft, useDossierPeers, type Elsewhere } from './draft-owner';
import { diff, type Json } from './paths';
import { dateTime } from '../format';

const TABS = ['Profile', 'Posts', 'Edges', 'Reports', 'Raw JSON'] as const;
type Tab = (typeof TABS)[number];
const DRAFT_DELAY_MS = 800;

/** What another window is doing with this dossier, said while it happens. */
function PeerNote(props: { elsewhere: Elsewhere; onReload: () => void }) {
  if (props.elsewhere === null) return null;
  if (props.elsewhere === 'saved') {
    return (
      <p className="warn-text" role="status" data-testid="dossier-elsewhere">
        Another window saved this dossier to the service. Saving here shows what it changed against your copy.{' '}
        <button type="button" className="link" onClick={props.onReload}>
          Reopen from the service
        </button>
      </p>
    );
  }
  return (
    <p className="warn-text" role="status" data-testid="dossier-elsewhere">
      This dossier is also open in another window
      {props.elsewhere === 'editing' ? ', with unsaved edits' : ''}. Each window keeps its own edits until
      saved, but only the last kept is offered after a restart: save from one of them.
    </p>
  );
}

export function DossierEditor(props: { handle: string; view: DossierView; onReload: () => void }) {
  const { view } = props;
  // Another window's draft (or one from before a restart) is offered, never taken as this window's own.
  const [own] = useState(() => isOwnDraft(props.handle, view.draftSavedAt));
  const [offered, setOffered] = useState(view.draft !== null && !own);
  const [base, setBase] = useState<Bundle>(own ? view.base : view.bundle);
  const [mine, setMine] = useState<Bundle>((own ? view.draft : null) ?? view.bundle);
  const peers = useDossierPeers(props.handle);
  const [tab, setTab] = useState<Tab>('Profile');
  const [reviewing, setReviewing] = useState(false);
  const [conflict, setConflict] = useState<{ base: Bundle; theirs: Bundle; mine: Bundle } | null>(null);
  // A save that went through is said in the success colour; anything else asks for attention.
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | null>(null);
  const saveDraft = useRpcMutation('dossier.saveDraft');
  const discard = useRpcMutation('dossier.discardDraft');
  // No refetch of dossier.open here: the editor keeps the saved copy as its new base itself.
  const save = useRpcMutation('dossier.save');
  const edited = useRef(false);
  const [restored, setRestored] = useState(own && view.draft !== null);

  const changes = useMemo(
    () => diff(base as unknown as Json, mine as unknown as Json).filter((c) => c.path !== 'gatheredAt'),
    [base, mine],
  );
  const removedReports = base.reportHistory.filter(
    (r) => !mine.reportHistory.some((m) => m.id === r.id),
  ).length;

  useEffect(() => {
    if (!edited.current) return;
    const keep = () =>
      saveDraft.mutate(
        { handle: props.handle, draft: mine },
        {
          onSuccess: ({ savedAt }) => {
            noteOwnDraft(props.handle, savedAt);
            peers.tell('draft');
          },
        },
      );
    const timer = setTimeout(keep, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
    // saveDraft and peers are stable across renders for this purpose; the draft follows the edits only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mine, props.handle]);

  const edit = (next: Bundle) => {
    edited.current = true;
    setRestored(false);
    // The first edit's draft replaces the one offered, so the offer lapses with it.
    setOffered(false);
    setNotice(null);
    setMine(next);
  };

  const submit = async (bundle: Bundle, baseGatheredAt: string) => {
    const answer = await save.mutateAsync({ handle: props.handle, bundle, baseGatheredAt });
    setReviewing(false);
    if (answer.status === 'saved') {
      edited.current = false;
      noteOwnDraft(props.handle, null);
      peers.tell('saved');
      setBase(answer.bundle);
      setMine(answer.bundle);
      setConflict(null);
      // The kept draft was of edits now saved: its "Draft kept at …" would say unsaved work is still around.
      saveDraft.reset();
      setRestored(false);
      setNotice({
        text: `Saved. The service now holds the dossier gathered at ${dateTime(answer.bundle.gatheredAt)}.`,
        ok: true,
      });
    } else if (answer.status === 'conflict') {
      // The editor's own base, not core's: core falls back to "theirs" when no draft was kept yet (a save
      // within the draft delay), which would make the other person's changes look like no change at all.
      setConflict({ base, theirs: answer.theirs, mine: answer.mine });
    } else {
      setNotice({ text: answer.message, ok: false });
    }
  };

  if (conflict) {
    return (
      <ConflictView
        {...conflict}
        onCancel={() => setConflict(null)}
        onResolved={(merged, theirs) => {
          setBase(theirs);
          edit(merged);
          setConflict(null);
          setNotice({ text: 'Merged. Review the change and save again.', ok: false });
        }}
      />
    );
  }

  return (
    <div className="dossier-editor">
      <div className="toolbar">
        <span className="muted small" aria-live="polite">
          {restored ? 'Restored your unsaved draft. ' : ''}
          {saveDraft.isPending
            ? 'Saving draft…'
            : saveDraft.data
              ? `Draft kept at ${new Date(saveDraft.data.savedAt).toLocaleTimeString()}`
              : ''}
          {saveDraft.isError ? (
            <span className="error-text"> Draft not kept: {errorMessage(saveDraft.error)}</span>
          ) : null}
        </span>
        <button
          type="button"
          className="primary"
          onClick={() => setReviewing(true)}
          disabled={changes.length === 0}
        >
          Review and save ({plural(changes.length, 'change')})
        </button>
        <button
          type="button"
          disabled={changes.length === 0}
          onClick={() => {
            discard.mutate({ handle: props.handle });
            noteOwnDraft(props.handle, null);
            edited.current = false;
            setMine(base);
          }}
        >
          Discard changes
        </button>
      </div>
      {offered && view.draft ? (
        <div className="notice" role="status" data-testid="dossier-offered-draft">
          <p>
            Unsaved edits to this dossier were kept at {dateTime(view.draftSavedAt)}, in another window or
            before Intel Desk was restarted. They are not in this copy. Editing here replaces them.
          </p>
          <div className="toolbar">
            <button
              type="button"
              onClick={() => {
                setOffered(false);
                setBase(view.base);
                edit(view.draft ?? view.bundle);
              }}
            >
              Continue those edits here
            </button>
            <button type="button" onClick={() => setOffered(false)}>
              Start from the service&apos;s copy
            </button>
          </div>
        </div>
      ) : null}
      <PeerNote elsewhere={peers.elsewhere} onReload={props.onReload} />
      {notice ? (
        <p className={notice.ok ? 'notice notice-ok' : 'notice'} role="status" data-testid="dossier-notice">
          {notice.text}{' '}
          <button type="button" className="link" onClick={props.onReload}>
            Reopen from the service
          </button>
        </p>
      ) : null}
      <div role="tablist" aria-label="Dossier parts" className="toolbar">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'tab active' : 'tab'}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'Profile' ? <ProfileEditor bundle={mine} onChange={edit} /> : null}
        {tab === 'Posts' ? (
          <PostsEditor bundle={mine} onChange={edit} now={() => new Date().toISOString()} />
        ) : null}
        {tab === 'Edges' ? <EdgesEditor bundle={mine} onChange={edit} /> : null}
        {tab === 'Reports' ? <ReportsEditor bundle={mine} onChange={edit} /> : null}
        {tab === 'Raw JSON' ? (
          <RawJson key={JSON.stringify(mine).length} bundle={mine} onApply={edit} />
        ) : null}
      </div>
      <Dialog title="Save the dossier" open={reviewing} onClose={() => setReviewing(false)}>
        <p>These changes go to the service, against its copy gathered at {dateTime(base.gatheredAt)}:</p>
        <ChangeList changes={changes} empty="No changes." />
        {removedReports > 0 ? (
          <p className="warn-text">
            {removedReports} removed report(s) stay on the service: its merge rule keeps the union of report
            histories.
          </p>
        ) : null}
        {save.isError ? <p className="error-text">{errorMessage(save.error)}</p> : null}
        {/* The purchase dialog's order: the way back first, the main action last and marked as such. */}
        <div className="dialog-actions">
          <button type="button" onClick={() => setReviewing(false)}>
            Keep editing
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void submit(mine, base.gatheredAt).catch(() => undefined)}
            disabled={save.isPending}
          >
            {save.isPending ? 'Saving…' : 'Save to the service'}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
