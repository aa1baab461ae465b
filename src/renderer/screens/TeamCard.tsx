/**
 * Settings → Team: join a team library by its PostgreSQL URL, see the connection and the team's caps, sync
 * now, and leave. The password in a URL goes to core once, which seals it; the window only ever shows the
 * URL without it, as core gives it back.
 */
import { useId, useState } from 'react';
import type { TeamSyncView, TeamView } from '../../shared/rpc';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { ErrorMessage, Loading } from '../components/States';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { Dialog } from '../components/Dialog';
import { count, dateTime, plural } from '../format';
import { TeamSpend } from './TeamSpend';

type Joined = Extract<TeamView, { joined: true }>;

function JoinForm(props: { left: boolean }) {
  const [url, setUrl] = useState('');
  const join = useRpcMutation('team.join');
  const messageId = useId();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        // The field is emptied once joined: the password it may hold stays only where core sealed it.
        join.mutate({ url }, { onSuccess: () => setUrl('') });
      }}
    >
      <p className="muted small">
        A team shares one library on its PostgreSQL database: each report is bought once for the whole team,
        the team&apos;s caps apply with yours, and every desk keeps a copy it reads offline. Each analyst pays
        from their own wallet.
      </p>
      <label>
        Team database URL{' '}
        <input
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
          value={url}
          placeholder="postgresql://you:password@db.example.com/team?sslmode=verify-full"
          onChange={(e) => setUrl(e.target.value)}
          aria-label="Team database URL"
          {...invalidProps(messageId, join.isError)}
        />
      </label>
      <p className="muted small">A password in the URL is sealed on this computer and never shown again.</p>
      <button type="submit" disabled={join.isPending || url.trim() === ''}>
        {join.isPending ? 'Joining…' : 'Join the team'}
      </button>
      <FormMessage
        id={messageId}
        error={join.isError ? errorMessage(join.error) : null}
        success={
          props.left && join.isIdle
            ? 'Left the team. The reports pulled from it stay in your Library, marked as the team’s.'
            : null
        }
      />
    </form>
  );
}

function synced(summary: TeamSyncView): string {
  const parts = [`pulled ${plural(summary.pulled, 'report')}`];
  if (summary.published > 0) parts.push(`published ${plural(summary.published, 'report')}`);
  if (summary.told > 0) parts.push(`told the team how ${plural(summary.told, 'purchase')} ended`);
  if (summary.freed > 0) parts.push(`freed ${plural(summary.freed, 'lapsed purchase')}`);
  return `Synced: ${parts.join(', ')}.`;
}

function JoinedTeam(props: { team: Joined; onLeft: () => void }) {
  const { team } = props;
  const sync = useRpcMutation('team.sync');
  const leave = useRpcMutation('team.leave');
  const [leaving, setLeaving] = useState(false);
  const messageId = useId();
  return (
    <>
      <dl className="kv" data-testid="team-joined">
        <div>
          <dt>Team</dt>
          <dd>{team.teamName}</dd>
        </div>
        <div>
          <dt>You</dt>
          <dd>
            {team.analyst} <span className="muted small">(desk {team.deskId})</span>
          </dd>
        </div>
        <div>
          <dt>Database</dt>
          <dd>
            <code data-testid="team-url">{team.url}</code>
          </dd>
        </div>
        <div>
          <dt>Connection</dt>
          <dd data-testid="team-connection">
            {team.reachable ? (
              <span className="ok-text">Reachable</span>
            ) : (
              <span className="error-text">Unreachable: {team.unreachableReason}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Last sync</dt>
          <dd>
            {team.syncedAt ? dateTime(team.syncedAt) : 'never'} · {count(team.pulled)} team{' '}
            {team.pulled === 1 ? 'report' : 'reports'} in this library
          </dd>
        </div>
      </dl>
      <TeamSpend team={team} />
      <div className="inline-form">
        <button
          type="button"
          disabled={sync.isPending}
          aria-describedby={messageId}
          onClick={() => {
            leave.reset();
            sync.mutate({});
          }}
        >
          {sync.isPending ? 'Syncing…' : 'Sync now'}
        </button>
        <button type="button" onClick={() => setLeaving(true)} disabled={leave.isPending}>
          Leave the team…
        </button>
      </div>
      <FormMessage
        id={messageId}
        error={sync.isError ? errorMessage(sync.error) : leave.isError ? errorMessage(leave.error) : null}
        success={sync.isSuccess ? synced(sync.data) : null}
      />
      <Dialog title="Leave the team?" open={leaving} onClose={() => setLeaving(false)}>
        <p>This desk leaves {team.teamName} and forgets the team database&apos;s password.</p>
        <p className="muted small">
          The {plural(team.pulled, 'report')} pulled from the team stay in your Library, readable and
          searchable, marked as the team&apos;s. Purchases from now on are this desk&apos;s alone.
        </p>
        <div className="dialog-actions">
          <button type="button" data-autofocus onClick={() => setLeaving(false)}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => {
              setLeaving(false);
              sync.reset();
              leave.mutate({}, { onSuccess: props.onLeft });
            }}
          >
            Leave the team
          </button>
        </div>
      </Dialog>
    </>
  );
}

export function TeamCard() {
  const team = useRpcQuery('team.status', {});
  const [left, setLeft] = useState(false);
  return (
    <div className="settings-block" data-testid="team-card">
      <h2>Team</h2>
      {team.isPending ? <Loading label="Asking the team…" /> : null}
      {team.isError ? <ErrorMessage error={team.error} onRetry={() => void team.refetch()} /> : null}
      {team.data ? (
        team.data.joined ? (
          <JoinedTeam team={team.data} onLeft={() => setLeft(true)} />
        ) : (
          <JoinForm left={left} />
        )
      ) : null}
    </div>
  );
}
