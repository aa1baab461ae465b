/**
 * The team's spend against its caps, as the team database says now or, while it cannot be reached, as it
 * said last (dated): in Settings → Team and at the top of Purchases when this desk is in a team.
 */
import type { TeamView } from '../../shared/rpc';
import { shareOf } from '../../shared/money';
import { useRpcQuery } from '../rpc/context';
import { dateTime, plural, usd } from '../format';
import { teamText as t } from '../text/team';

type Joined = Extract<TeamView, { joined: true }>;

export function TeamSpend(props: { team: Joined }) {
  const { team } = props;
  const caps = team.caps;
  if (!caps) {
    return (
      <p className="muted small" data-testid="team-spend">
        {t('capsUnknown')}
      </p>
    );
  }
  const share = caps.dailyCap === null ? 0 : shareOf(caps.spentToday, caps.dailyCap);
  return (
    <div className="spend team-spend" data-testid="team-spend">
      <p>
        {t('today', {
          name: caps.name,
          spent: usd(caps.spentToday),
          cap: caps.dailyCap === null ? t('noDailyCap') : t('ofDailyCap', { cap: usd(caps.dailyCap) }),
          timeZone: caps.timeZone,
          perPurchase: caps.perPurchaseCap === null ? t('none') : usd(caps.perPurchaseCap),
          overCap: caps.overCap === 'consent' ? t('overCapConsent') : '',
        })}
      </p>
      {caps.dailyCap !== null ? (
        <div
          className={share >= 0.8 ? 'meter meter-high' : 'meter'}
          role="meter"
          aria-label={t('meterLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          aria-valuetext={t('meterValue', { spent: usd(caps.spentToday), cap: usd(caps.dailyCap) })}
        >
          <div className="meter-fill" style={{ width: `${share * 100}%` }} />
        </div>
      ) : null}
      {caps.inDoubt > 0 ? (
        <p className="warn-text small">
          {t(caps.inDoubt === 1 ? 'inDoubtOne' : 'inDoubtMany', {
            purchases: plural(caps.inDoubt, t('teamPurchase'), t('teamPurchases')),
          })}
        </p>
      ) : null}
      {team.reachable ? null : (
        <p className="warn-text small" data-testid="team-spend-dated">
          {t('asOf', { when: dateTime(team.capsAt) })}
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
