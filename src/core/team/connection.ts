/**
 * How a desk reaches its team's PostgreSQL: the URL a person types, checked and split from its password (the
 * password is sealed apart, decision 0043), the client's timeouts, and every failure of the server or the
 * network turned into one named code and a sentence that says nothing was changed.
 */
import pg from 'pg';
import { DeskError, refused } from '../base/errors';
import { encryptedOrLocal } from '../../shared/transport';

export interface TeamUrl {
  /** The URL without its password: what is stored, logged and shown. */
  url: string;
  /** The password the URL carried, if any (sealed by the caller). */
  password: string | null;
  /** The role the URL signs in as: the analyst, in the team's ledger. */
  user: string | null;
}

const TLS_MODES = new Set(['require', 'verify-ca', 'verify-full']);

/**
 * Checks a `postgres://` / `postgresql://` URL, including the Unix-socket form `?host=/path/to/dir`. A server
 * that is not this computer is reached only over TLS (`sslmode=require`, `verify-ca` or `verify-full`), as
 * the desk's other connections are (decision 0040).
 */
export function parseTeamUrl(text: string): TeamUrl {
  const trimmed = text.trim();
  const shown = trimmed.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@').slice(0, 200);
  // The socket form has no host ("postgresql://alice@/research?host=/run/postgresql"), which WHATWG URLs
  // refuse beside a user name: it is read as localhost, and kept as typed.
  const readable = trimmed.replace(/^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)(?=\/)/i, '$1localhost');
  if (!/^postgres(ql)?:\/\//i.test(trimmed) || !URL.canParse(readable)) {
    throw new DeskError(
      'team_url_invalid',
      `"${shown}" is not a PostgreSQL URL; give one like postgresql://alice@db.example.com/research?sslmode=verify-full.`,
      'usage',
    );
  }
  const url = new URL(readable);
  const socket = url.searchParams.get('host');
  const local = socket !== null ? socket.startsWith('/') : encryptedOrLocal(`http://${url.host}`);
  const sslmode = url.searchParams.get('sslmode');
  if (!local && (sslmode === null || !TLS_MODES.has(sslmode))) {
    throw new DeskError(
      'team_insecure',
      `The team database at ${url.hostname} is not on this computer, so Intel Desk reaches it only over TLS: add sslmode=verify-full to the URL.`,
      'usage',
    );
  }
  if (!url.pathname.replace(/^\//, '')) {
    throw new DeskError(
      'team_url_invalid',
      `"${shown}" names no database; add it after the host, as in /research.`,
      'usage',
    );
  }
  const password = url.password ? decodeURIComponent(url.password) : null;
  const user = url.username ? decodeURIComponent(url.username) : null;
  return { url: trimmed.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1@'), password, user };
}

/** Errors of the server or the network, as codes a person can act on; anything else stays a database error. */
export function teamError(error: unknown, action: string): DeskError {
  if (error instanceof DeskError) return error;
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  const nothing = `Nothing was ${action === 'reserve' ? 'signed or paid' : 'changed'}.`;
  if (
    typeof code === 'string' &&
    [
      'ECONNREFUSED',
      'ENOENT',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ECONNRESET',
      'EPIPE',
      'ENOTFOUND',
    ].includes(code)
  ) {
    return new DeskError(
      'team_unreachable',
      `The team database cannot be reached (${code}). ${nothing}`,
      'refused',
      {},
      { cause: error },
    );
  }
  if (code === '57014') {
    return new DeskError(
      'team_unreachable',
      `The team database did not finish in time (${text}); it may be overloaded. ${nothing}`,
      'refused',
      {},
      { cause: error },
    );
  }
  if (
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    /terminat|timeout|Connection ended/i.test(text)
  ) {
    return new DeskError(
      'team_unreachable',
      `The team database went away (${text}). ${nothing}`,
      'refused',
      {},
      { cause: error },
    );
  }
  if (code === '28P01' || code === '28000' || /password must be a string/.test(text)) {
    return new DeskError(
      'team_auth_failed',
      `The team database refused the sign-in: ${text}. Check the user and password. ${nothing}`,
      'refused',
    );
  }
  if (code === '3D000')
    return new DeskError('team_db_error', `The team database does not exist: ${text}. ${nothing}`, 'refused');
  if (code === 'ID001' || code === 'ID002') {
    return refused(
      'team_not_member',
      `${text}: ask the team's admin to GRANT you the team's role. ${nothing}`,
    );
  }
  if (code === '3F000' || code === '42P01' || code === '42883') {
    return refused(
      'team_schema_missing',
      `This database holds no Intel Desk team (${text}); the team's admin runs "intel-desk team create" first. ${nothing}`,
    );
  }
  return new DeskError(
    'team_db_error',
    `The team database answered with an error: ${text}. ${nothing}`,
    'service',
    {},
    { cause: error },
  );
}

export interface TeamConnectOptions {
  url: string;
  password: string | null;
  /** How long to wait for the server before refusing (ms). */
  connectTimeoutMs?: number;
}

/** A client with timeouts that keep a purchase from hanging on a silent server: it is refused instead. */
export function teamClientConfig(options: TeamConnectOptions): pg.ClientConfig {
  // pg reads the connection string over the other fields, so the password goes back into the string.
  const withPassword =
    options.password === null
      ? options.url
      : options.url.replace(
          /^(postgres(?:ql)?:\/\/)([^:@/]+)@/i,
          `$1$2:${encodeURIComponent(options.password)}@`,
        );
  return {
    connectionString: withPassword,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    statement_timeout: 10_000,
    query_timeout: 15_000,
    application_name: 'intel-desk',
    // A connection that dies silently (a dropped route, the server's host gone) ends instead of hanging:
    // the listening one is then opened again, a pooled one replaced.
    keepAlive: true,
    keepAliveInitialDelayMillis: 30_000,
  };
}

/** Runs `work` on a fresh connection, closed afterwards; failures become team codes. */
export async function withTeamClient<T>(
  options: TeamConnectOptions,
  action: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(teamClientConfig(options));
  // An error event after connect (the server restarting) would otherwise end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } catch (error) {
    throw teamError(error, action);
  } finally {
    await client.end().catch(() => undefined);
  }
}
