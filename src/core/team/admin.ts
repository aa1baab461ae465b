/**
 * `intel-desk team create`: the team's admin creates or upgrades the schema and the team, once, under an
 * advisory lock so two admins at once do it one after the other. The admin's URL is used for this run only.
 */
import type pg from 'pg';
import { DeskError } from '../base/errors';
import { MEMBER_ROLE, TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from './schema';
import { withTeamClient, type TeamConnectOptions } from './connection';

/** An arbitrary constant: the advisory lock every `team create` takes. */
const SCHEMA_LOCK = 4_020_402;

export interface TeamRules {
  name: string;
  /** USDC base units; null for no cap. */
  dailyCap: bigint | null;
  perPurchaseCap: bigint | null;
  timeZone: string;
  /** Over a team cap: refused, or allowed with the analyst's explicit consent. */
  overCap: 'refuse' | 'consent';
}

export interface CreatedTeam {
  name: string;
  /** The role the admin grants to each member: GRANT <groupRole> TO alice. */
  groupRole: string;
  schemaVersion: number;
  created: boolean;
  upgradedFrom: number;
}

export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new DeskError(
      'invalid_time_zone',
      `"${timeZone.slice(0, 60)}" is not a time zone; use an IANA name such as Europe/Berlin or UTC.`,
      'usage',
    );
  }
}

export function groupRoleFor(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  if (!slug) {
    throw new DeskError(
      'invalid_input',
      `A team name needs a letter or a digit; "${name.slice(0, 80)}" has none.`,
      'usage',
    );
  }
  return `intel_desk_team_${slug}`;
}

/** The schema version the database holds: 0 when it holds none yet. */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ present: boolean }>(
    "SELECT to_regclass('intel_desk.meta') IS NOT NULL AS present",
  );
  if (!exists.rows[0]?.present) return 0;
  const row = await client.query<{ value: string }>(
    "SELECT value FROM intel_desk.meta WHERE key = 'schema_version'",
  );
  return Number(row.rows[0]?.value ?? 0);
}

export async function createTeam(connection: TeamConnectOptions, rules: TeamRules): Promise<CreatedTeam> {
  assertTimeZone(rules.timeZone);
  const groupRole = groupRoleFor(rules.name);
  return withTeamClient(connection, 'create', async (client) => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      const from = await schemaVersion(client);
      if (from > TEAM_SCHEMA_VERSION) {
        throw new DeskError(
          'team_schema_newer',
          `The team database has schema version ${from}, newer than this Intel Desk knows (${TEAM_SCHEMA_VERSION}); update Intel Desk first. Nothing was changed.`,
          'refused',
        );
      }
      for (const step of TEAM_MIGRATIONS.slice(from)) await client.query(step);
      await client.query(
        `INSERT INTO intel_desk.meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(TEAM_SCHEMA_VERSION)],
      );
      const existing = await client.query('SELECT 1 FROM intel_desk.teams WHERE name = $1', [rules.name]);
      const roleExists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [groupRole]);
      if (roleExists.rowCount === 0) {
        await client.query(`CREATE ROLE ${quoteIdent(groupRole)} NOLOGIN`);
      } else if (existing.rowCount === 0) {
        throw new DeskError(
          'invalid_input',
          `The role ${groupRole} already exists on this server for something else; choose another team name. Nothing was changed.`,
          'usage',
        );
      }
      await client.query(`GRANT ${MEMBER_ROLE} TO ${quoteIdent(groupRole)}`);
      await client.query(
        `INSERT INTO intel_desk.teams (name, group_role, daily_cap, per_purchase_cap, time_zone, over_cap)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (name) DO UPDATE SET daily_cap = excluded.daily_cap,
           per_purchase_cap = excluded.per_purchase_cap, time_zone = excluded.time_zone,
           over_cap = excluded.over_cap`,
        [
          rules.name,
          groupRole,
          rules.dailyCap?.toString() ?? null,
          rules.perPurchaseCap?.toString() ?? null,
          rules.timeZone,
          rules.overCap,
        ],
      );
      await client.query('COMMIT');
      return {
        name: rules.name,
        groupRole,
        schemaVersion: TEAM_SCHEMA_VERSION,
        created: existing.rowCount === 0,
        upgradedFrom: from,
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
