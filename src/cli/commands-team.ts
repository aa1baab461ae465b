/** `intel-desk team create|join|status|sync|leave`. */
import type { DeskCore } from '../core';
import type { TeamView } from '../shared/rpc';
import { formatUnitsUsd } from '../shared/money';
import type { Values } from './options';
import { count, UsageError, type Output } from './output';
import { usdArgument } from './usd-argument';
import { didYouMean } from './suggest';

const ACTIONS = ['create', 'join', 'status', 'sync', 'leave'];

function requireDb(values: Values): string {
  if (!values.db) throw new UsageError('missing --db URL (postgresql://user@host/database)');
  return values.db;
}

export function teamLines(view: TeamView): string[] {
  if (!view.joined) return ['This desk is in no team. Join one with: intel-desk team join --db URL'];
  const lines = [
    `Team ${view.teamName} at ${view.url}`,
    `This desk: ${view.deskId}, analyst ${view.analyst}; joined ${view.joinedAt}`,
    view.reachable
      ? 'The team database answers.'
      : `The team database does not answer: ${view.unreachableReason ?? 'unknown'} Reading works; buying is refused until it answers.`,
  ];
  const caps = view.caps;
  if (caps) {
    const cap = (value: string | null) => (value === null ? 'none' : formatUnitsUsd(value));
    lines.push(
      `${view.reachable ? 'Today' : `As of ${view.capsAt ?? 'unknown'}`} (${caps.timeZone}): ${formatUnitsUsd(caps.spentToday)} spent or reserved of a daily cap of ${cap(caps.dailyCap)}; per purchase ${cap(caps.perPurchaseCap)}${caps.overCap === 'consent' ? ' (over a cap with consent)' : ''}.`,
      `${count(caps.reports, 'report')} published, ${count(caps.reserved, 'purchase')} being bought, ${caps.inDoubt} in doubt.`,
    );
  }
  lines.push(`${count(view.pulled, 'team report')} in this library; last sync ${view.syncedAt ?? 'never'}.`);
  return lines;
}

export async function team(desk: DeskCore, out: Output, values: Values, action: string): Promise<void> {
  const { handlers } = desk;
  switch (action) {
    case 'create': {
      if (!values.name) throw new UsageError('missing --name NAME for the team');
      const created = await handlers['team.create']({
        url: requireDb(values),
        name: values.name,
        dailyCap: values['daily-cap'] ? usdArgument(values['daily-cap'], '--daily-cap').toString() : null,
        perPurchaseCap: values['per-purchase-cap']
          ? usdArgument(values['per-purchase-cap'], '--per-purchase-cap').toString()
          : null,
        ...(values['time-zone'] ? { timeZone: values['time-zone'] } : {}),
        overCap: values['consent-over-cap'] ? 'consent' : 'refuse',
      });
      out.result(created, () =>
        [
          `${created.created ? 'Created' : 'Updated'} team ${created.name} (schema version ${created.schemaVersion}${created.upgradedFrom > 0 && created.upgradedFrom < created.schemaVersion ? `, upgraded from ${created.upgradedFrom}` : ''}).`,
          `Give each analyst a login role of their own and the team's role:`,
          `  CREATE ROLE alice LOGIN PASSWORD '…'; GRANT ${created.groupRole} TO alice;`,
          `Then each runs: intel-desk team join --db postgresql://alice@HOST/DATABASE`,
        ].join('\n'),
      );
      return;
    }
    case 'join': {
      await handlers['team.join']({ url: requireDb(values) });
      const synced = await handlers['team.sync']({});
      out.result(synced.team, () =>
        [
          `Joined.`,
          ...teamLines(synced.team),
          `Pulled ${count(synced.pulled, 'report')} from the team.`,
        ].join('\n'),
      );
      return;
    }
    case 'status': {
      const view = await handlers['team.status']({});
      out.result(view, () => teamLines(view).join('\n'));
      return;
    }
    case 'sync': {
      const synced = await handlers['team.sync']({});
      out.result(synced, () =>
        [
          `Told the team the end of ${count(synced.told, 'purchase')}; published ${count(synced.published, 'report')}; freed ${count(synced.freed, 'lapsed purchase')}; pulled ${count(synced.pulled, 'report')}.`,
          ...teamLines(synced.team),
        ].join('\n'),
      );
      return;
    }
    case 'leave': {
      const { left } = await handlers['team.leave']({});
      out.result({ left }, () =>
        left
          ? "Left the team. The team's reports pulled into this library stay readable; the database password was deleted."
          : 'This desk was in no team; nothing was changed.',
      );
      return;
    }
    default:
      throw new UsageError(
        `unknown team action "${action}".${didYouMean(action, ACTIONS)} Try: ${ACTIONS.join(', ')}`,
      );
  }
}
