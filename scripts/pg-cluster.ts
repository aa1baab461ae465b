/**
 * A throwaway PostgreSQL cluster for one test file, from Debian's binaries: `initdb --no-sync`, `pg_ctl` on a
 * Unix socket in a temp folder and no TCP port. initdb and pg_ctl refuse to run as root, so as root (CI) they
 * run as the `postgres` user through runuser, which then owns the cluster's folder.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const SUPERUSER_PASSWORD = 'cluster-admin-password';

/** The newest installed server's bin folder, or null when PostgreSQL is not installed. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export interface PgCluster {
  /** The folder holding the server's socket: the `host` of every URL. */
  socketDir: string;
  /** A URL for `user` (the cluster's superuser unless named) on `database`, over the socket. */
  url(database: string, user?: string, password?: string): string;
  /** A new empty database, named for the test. */
  createDatabase(name: string): Promise<string>;
  /** A login role with a password, for a member of a team. */
  createRole(name: string, password: string): Promise<void>;
  /** SQL as the superuser on a database. */
  query(database: string, sql: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** `pg_ctl stop -m immediate`: the server dies as in a crash. */
  crash(): void;
  start(): void;
  /** crash() then start(), without blocking the caller's event loop (its proxies go on meanwhile). */
  crashAndRestart(): Promise<void>;
  stop(): Promise<void>;
}

export function startCluster(): PgCluster {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql).');
  const folder = mkdtempSync(path.join(tmpdir(), 'desk-pg-'));
  const data = path.join(folder, 'data');
  const socketDir = path.join(folder, 'socket');
  const asRoot = userInfo().uid === 0;
  const owner = asRoot ? Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()) : null;
  const command = (tool: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
  const run = (tool: string, args: string[]) => {
    const result = spawnSync(...command(tool, args), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
  };
  const runAsync = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(...command(tool, args), { encoding: 'utf8' }, (error, stdout, stderr) =>
        error ? reject(new Error(`${tool} failed: ${stderr || stdout}`)) : resolve(),
      ),
    );
  chmodSync(folder, 0o755);
  execFileSync('mkdir', ['-m', '0700', socketDir]);
  const passwordFile = path.join(folder, 'superuser-password');
  writeFileSync(passwordFile, SUPERUSER_PASSWORD);
  if (owner !== null) {
    chownSync(folder, owner, owner);
    chownSync(socketDir, owner, owner);
    chownSync(passwordFile, owner, owner);
  }
  run('initdb', [
    '-D',
    data,
    '--no-sync',
    '-U',
    'postgres',
    '--auth-local=scram-sha-256',
    '--auth-host=reject',
    `--pwfile=${passwordFile}`,
    '--encoding=UTF8',
    '--locale=C',
  ]);
  const options = `-c listen_addresses='' -c unix_socket_directories='${socketDir}' -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const startArgs = ['-D', data, '-o', options, '-w', '-s', '-l', path.join(folder, 'log'), 'start'];
  const crashArgs = ['-D', data, '-m', 'immediate', '-w', '-s', 'stop'];
  const start = () => run('pg_ctl', startArgs);
  start();
  const url = (database: string, user = 'postgres', password = SUPERUSER_PASSWORD) =>
    `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@/${database}?host=${encodeURIComponent(socketDir)}`;
  const query = async (database: string, sql: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: url(database) });
    // A crash of the server mid-query rejects the query; the client's error event must not end the process.
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await client.query(sql, values);
    } finally {
      await client.end();
    }
  };
  return {
    socketDir,
    url,
    async createDatabase(name) {
      await query('postgres', `CREATE DATABASE "${name}"`);
      return name;
    },
    async createRole(name, password) {
      await query('postgres', `CREATE ROLE "${name}" LOGIN PASSWORD '${password.replaceAll("'", "''")}'`);
    },
    query,
    crash: () => run('pg_ctl', crashArgs),
    start,
    async crashAndRestart() {
      await runAsync('pg_ctl', crashArgs);
      await runAsync('pg_ctl', startArgs);
    },
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-s', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
