/**
 * The team's spend against its caps, as the team database says now or, while it cannot be reached, as it
 * said last (dated): in Settings → Team and at the top of Purchases when this desk is in a team.
 */
import type { TeamView } from '../../shared/rpc';
import { shareOf } from '../../shared/money';
import { useRpcQuery } from '../rpc/context';
import { dateTime, plural, pluralWord, usd } from '../format';

type Joined = Extract<TeamView, { joined: true }>;

export function TeamSpend(props: { team: Joined }) {
  const { team } = props;
  const caps = team.caps;
  if (!caps) {
    return (
      <p className="muted small" data-testid="team-spend">
        The team&apos;s caps are not known yet: it has not answered since this desk joined.
      </p>
    );
  }
  const share = caps.dailyCap === null ? 0 : shareOf(caps.spentToday, caps.dailyCap);
  return (
    <div className="spend team-spend" data-testid="team-spend">
      <p>
        Team {caps.name} today: {usd(caps.spentToday)}
        {caps.dailyCap === null
          ? ' spent or reserved (no daily cap)'
          : ` of its ${usd(caps.dailyCap)} daily cap`}{' '}
        ({caps.timeZone}) · per purchase cap{' '}
        {caps.perPurchaseCap === null ? 'none' : usd(caps.perPurchaseCap)}
        {caps.overCap === 'consent' ? ' · over a cap with your consent' : ''}
      </p>
      {caps.dailyCap !== null ? (
        <div
          className={share >= 0.8 ? 'meter meter-high' : 'meter'}
          role="meter"
          aria-label="Team spent today of its daily cap"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          aria-valuetext={`${usd(caps.spentToday)} of ${usd(caps.dailyCap)}`}
        >
          <div className="meter-fill" style={{ width: `${share * 100}%` }} />
        </div>
      ) : null}
      {caps.inDoubt > 0 ? (
        <p className="warn-text small">
          {plural(caps.inDoubt, 'team purchase')} {pluralWord(caps.inDoubt, 'is', 'are')} in doubt, counted in
          full until the chain says how {caps.inDoubt === 1 ? 'it' : 'they'} ended.
        </p>
      ) : null}
      {team.reachable ? null : (
        <p className="warn-text small" data-testid="team-spend-dated">
          As of {dateTime(team.capsAt)}: the team cannot be reached now, so buying waits until it answers.
        </p>
      )}
    </div>
  );
}

/** The team's line at the top of Purchases; nothing outside a team. */
export function TeamSpendLine() {
  const team = useRpcQuery('team.status', {});
  if (!team.data?.joined) return null;
  return <TeamSpend team={team.data} />;
}
