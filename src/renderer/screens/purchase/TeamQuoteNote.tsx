/**
 * What the team says of the quoted reports (decision 0050), under the price: free to buy, owned by the team
 * (one click syncs them in, and the new price leaves them out), being bought by a colleague, over a team cap
 * (core's sentence), or no answer from the team (the price stands, Buy waits). `teamBlocksBuy` is the rule
 * the Buy button follows: what the reservation would refuse before anything is signed.
 */
import type { QuoteTeamView, TeamReportMark } from '../../../shared/rpc';
import { purchaseText as t } from '../../text/purchase';
import { TeamOwnedSync } from './TeamOwnedSync';

export function teamBlocksBuy(team: QuoteTeamView | null): boolean {
  if (team === null) return false;
  if (!team.reachable) return true;
  return team.refusal?.code === 'team_owned' || team.refusal?.code === 'team_in_progress';
}

/** The note under the price already offers "Sync with the team": a refusal after Buy need not offer it again. */
export function teamOffersSync(team: QuoteTeamView | null): boolean {
  return team?.reachable === true && team.refusal?.code === 'team_owned';
}

function held(marks: TeamReportMark[], state: TeamReportMark['state']) {
  const of = marks.filter((mark) => mark.state === state);
  const first = of[0];
  return {
    count: of.length,
    who: first ? t('teamWho', { analyst: first.analyst, desk: first.deskId }) : '',
  };
}

export function TeamQuoteNote(props: { team: QuoteTeamView; id: string; onAskAgain: () => void }) {
  const { team } = props;
  if (!team.reachable) {
    return (
      <div className="team-quote-note" data-testid="team-quote">
        <p className="warn-text" id={props.id}>
          {t(team.code === 'team_unreachable' ? 'teamUnreachableNote' : 'teamCannotNote', {
            reason: team.reason,
          })}
        </p>
        <button type="button" onClick={props.onAskAgain}>
          {t('teamTryAgain')}
        </button>
      </div>
    );
  }
  const code = team.refusal?.code;
  if (teamOffersSync(team)) {
    return (
      <div className="team-quote-note" data-testid="team-quote">
        <p className="warn-text" id={props.id}>
          {t('teamOwnedNote', held(team.reports, 'owned'))}
        </p>
        <TeamOwnedSync onSynced={props.onAskAgain} />
      </div>
    );
  }
  const sentence =
    code === 'team_in_progress'
      ? t('teamBuyingNote', held(team.reports, 'in_progress'))
      : code !== undefined
        ? (team.refusal?.message ?? '')
        : t('teamFree');
  return (
    <p className={code === undefined ? 'muted small' : 'warn-text'} id={props.id} data-testid="team-quote">
      {sentence}
    </p>
  );
}
