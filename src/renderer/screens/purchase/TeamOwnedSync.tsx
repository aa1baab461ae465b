/**
 * A purchase refused because the team already owns some of its reports: one click syncs with the team, so
 * they reach this library, and asks for a new price, which leaves out what the library now holds.
 */
import { useRpcMutation } from '../../rpc/context';
import { errorMessage } from '../../rpc/client';
import { plural } from '../../format';
import { purchaseText as t } from '../../text/purchase';

export function TeamOwnedSync(props: { onSynced: () => void }) {
  const sync = useRpcMutation('team.sync', { onSuccess: props.onSynced });
  return (
    <div className="team-owned-sync" data-testid="team-owned-sync">
      <button type="button" className="primary" disabled={sync.isPending} onClick={() => sync.mutate({})}>
        {sync.isPending ? t('syncingTeam') : t('syncTeam')}
      </button>
      <p role="status" className={sync.isError ? 'form-message error-text' : 'form-message ok-text'}>
        {sync.isError
          ? errorMessage(sync.error)
          : !sync.isSuccess
            ? ''
            : sync.data.pulled > 0
              ? t('teamPulled', { reports: plural(sync.data.pulled, t('report'), t('reports')) })
              : t('teamNothing')}
      </p>
    </div>
  );
}
