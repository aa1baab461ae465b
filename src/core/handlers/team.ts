/** The team library (src/core/team/): faces only. */
import type { RpcHandlers } from '../../shared/rpc';
import { createTeam } from '../team/admin';
import { parseTeamUrl } from '../team/connection';
import type { TeamDesk } from '../team/team-desk';
import type { TeamViews } from '../team/team-view';

export const teamHandlers = (
  desk: TeamDesk,
  views: TeamViews,
): Pick<RpcHandlers, 'team.create' | 'team.join' | 'team.status' | 'team.sync' | 'team.leave'> => ({
  'team.create': async (input) => {
    const { url, password } = parseTeamUrl(input.url);
    return createTeam(
      { url, password },
      {
        name: input.name,
        dailyCap: input.dailyCap ? BigInt(input.dailyCap) : null,
        perPurchaseCap: input.perPurchaseCap ? BigInt(input.perPurchaseCap) : null,
        timeZone: input.timeZone ?? 'UTC',
        overCap: input.overCap ?? 'refuse',
      },
    );
  },
  'team.join': ({ url }) => views.join(url),
  'team.status': () => views.view(),
  'team.sync': async () => {
    const summary = await desk.sync();
    return {
      told: summary.told,
      published: summary.published,
      freed: summary.freed,
      pulled: summary.pulled,
      team: await views.view(),
    };
  },
  'team.leave': () => views.leave(),
});
