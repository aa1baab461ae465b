/**
 * A purchase refused because the team already owns some of its reports: one click syncs with the team, so
 * they reach this library, and asks for a new price, which leaves out what the library now holds.
 */
import { useMutationState, type MutationState } from '@tanstack/react-query';
import type { RpcOutputs } from '../../../shared/rpc';
import { useRpcMutation } from '../../rpc/context';
import { errorMessage } from '../../rpc/client';
import { plural } from '../../format';
import { purchaseText as t } from '../../text/purchase';

const SYNC_KEY = ['team-owned-sync'] as const;

export function TeamOwnedSync(props: { onSynced: () => void }) {
  const sync = useRpcMutation('team.sync', { onSuccess: props.onSynced, mutationKey: SYNC_KEY });
  // The refetched price may move this offer from the refusal to the price's note: the one shown then still
  // says how the sync the person asked for went.
  const last = useMutationState({
    filters: { mutationKey: SYNC_KEY },
    select: (mutation) => mutation.state as MutationState<RpcOutputs['team.sync'], Error>,
  }).at(-1);
  const pending = last?.status === 'pending';
  return (
    <div className="team-owned-sync" data-testid="team-owned-sync">
      <button type="button" className="primary" disabled={pending} onClick={() => sync.mutate({})}>
        {pending ? t('syncingTeam') : t('syncTeam')}
      </button>
      <p
        role="status"
        className={last?.status === 'error' ? 'form-message error-text' : 'form-message ok-text'}
      >
        {last?.status === 'error' && last.error
          ? errorMessage(last.error)
          : last?.status !== 'success' || !last.data
            ? ''
            : last.data.pulled > 0
              ? t('teamPulled', { reports: plural(last.data.pulled, t('report'), t('reports')) })
              : t('teamNothing')}
      </p>
    </div>
  );
}
