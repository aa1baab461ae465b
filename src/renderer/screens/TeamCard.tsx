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
import { teamText as t } from '../text/team';

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
      <p className="muted small">{t('joinExplain')}</p>
      <label>
        {t('teamUrl')}{' '}
        <input
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
          value={url}
          placeholder={t('urlPlaceholder')}
          onChange={(e) => setUrl(e.target.value)}
          aria-label={t('teamUrl')}
          {...invalidProps(messageId, join.isError)}
        />
      </label>
      <p className="muted small">{t('passwordSealed')}</p>
      <button type="submit" disabled={join.isPending || url.trim() === ''}>
        {join.isPending ? t('joining') : t('join')}
      </button>
      <FormMessage
        id={messageId}
        error={join.isError ? errorMessage(join.error) : null}
        success={props.left && join.isIdle ? t('leftTeam') : null}
      />
    </form>
  );
}

function synced(summary: TeamSyncView): string {
  const reports = (n: number) => plural(n, t('report'), t('reports'));
  const parts = [t('pulled', { reports: reports(summary.pulled) })];
  if (summary.published > 0) parts.push(t('published', { reports: reports(summary.published) }));
  if (summary.told > 0)
    parts.push(t('told', { purchases: plural(summary.told, t('purchase'), t('purchases')) }));
  if (summary.freed > 0)
    parts.push(t('freed', { purchases: plural(summary.freed, t('lapsedPurchase'), t('lapsedPurchases')) }));
  return t('synced', { parts: parts.join(', ') });
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
          <dt>{t('team')}</dt>
          <dd>{team.teamName}</dd>
        </div>
        <div>
          <dt>{t('you')}</dt>
          <dd>
            {team.analyst} <span className="muted small">{t('desk', { id: team.deskId })}</span>
          </dd>
        </div>
        <div>
          <dt>{t('database')}</dt>
          <dd>
            <code data-testid="team-url">{team.url}</code>
          </dd>
        </div>
        <div>
          <dt>{t('connection')}</dt>
          <dd data-testid="team-connection">
            {team.reachable ? (
              <span className="ok-text">{t('reachable')}</span>
            ) : (
              <span className="error-text">{t('unreachable', { reason: team.unreachableReason ?? '' })}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('lastSync')}</dt>
          <dd>
            {t('lastSyncLine', {
              when: team.syncedAt ? dateTime(team.syncedAt) : t('never'),
              count: count(team.pulled),
              reports: team.pulled === 1 ? t('report') : t('reports'),
            })}
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
          {sync.isPending ? t('syncing') : t('syncNow')}
        </button>
        <button type="button" onClick={() => setLeaving(true)} disabled={leave.isPending}>
          {t('leaveChosen')}
        </button>
      </div>
      <FormMessage
        id={messageId}
        error={sync.isError ? errorMessage(sync.error) : leave.isError ? errorMessage(leave.error) : null}
        success={sync.isSuccess ? synced(sync.data) : null}
      />
      <Dialog title={t('leaveTitle')} open={leaving} onClose={() => setLeaving(false)}>
        <p>{t('leaves', { team: team.teamName })}</p>
        <p className="muted small">
          {t('leaveKeeps', { reports: plural(team.pulled, t('report'), t('reports')) })}
        </p>
        <div className="dialog-actions">
          <button type="button" data-autofocus onClick={() => setLeaving(false)}>
            {t('cancel')}
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
            {t('leave')}
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
      <h2>{t('title')}</h2>
      {team.isPending ? <Loading label={t('asking')} /> : null}
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
