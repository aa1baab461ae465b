/** `intel-desk team …`: the team library on PostgreSQL (decision 0043). */
import { form, library, need, type CliCommand } from './command-spec';

export const TEAM_COMMANDS: readonly CliCommand[] = [
  library(
    'team',
    [
      form(
        'team create --db URL --name NAME [--daily-cap USD] [--per-purchase-cap USD] [--time-zone TZ]',
        "the team's admin, once: create (or upgrade) the team's schema and",
        'the team in that database; prints the role to GRANT each member',
      ),
      form('team join --db URL', "join the team of the URL's role; its reports are pulled at once"),
      form('team status', "the team, its caps and today's spend (a dated copy when unreachable)"),
      form('team sync', "tell the team this desk's outcomes, then pull what the team published"),
      form('team leave', "leave the team; the team's reports pulled stay readable"),
    ],
    ['db', 'name', 'daily-cap', 'per-purchase-cap', 'time-zone', 'consent-over-cap'],
    async (desk, { out, values, args }) =>
      (await import('./commands-team')).team(desk, out, values, need(args, 0, 'team action')),
    ['create', 'join', 'status', 'sync', 'leave'],
  ),
];
