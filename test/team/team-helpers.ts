/** A team on a throwaway cluster, with a login role per analyst, as its admin would set it up. */
import type { PgCluster } from '../../scripts/pg-cluster';
import { runCli } from '../cli/run-cli';

export interface TestTeam {
  database: string;
  adminUrl: string;
  /** A member's URL, password included, as they would type it to join. */
  memberUrl(analyst: string): string;
}

let counter = 0;

export async function createTestTeam(
  cluster: PgCluster,
  analysts: readonly string[],
  /** The admin's own desk folder: `team create` runs like any command. */
  adminDataDir: string,
  flags: readonly string[] = [],
): Promise<TestTeam> {
  counter += 1;
  const database = await cluster.createDatabase(`team_${process.pid}_${counter}`);
  const adminUrl = cluster.url(database);
  const name = `research ${process.pid} ${counter}`;
  const created = await runCli(['team', 'create', '--db', adminUrl, '--name', name, '--json', ...flags], {
    INTEL_DESK_DATA_DIR: adminDataDir,
  });
  if (created.code !== 0) throw new Error(`team create failed: ${created.stdout}${created.stderr}`);
  const { groupRole } = JSON.parse(created.stdout) as { groupRole: string };
  for (const analyst of analysts) {
    const role = `${analyst}_${process.pid}_${counter}`;
    await cluster.createRole(role, `pw-${role}`);
    await cluster.query(database, `GRANT ${groupRole} TO ${role}`);
  }
  return {
    database,
    adminUrl,
    memberUrl: (analyst) => {
      const role = `${analyst}_${process.pid}_${counter}`;
      return cluster.url(database, role, `pw-${role}`);
    },
  };
}
