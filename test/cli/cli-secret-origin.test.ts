/**
 * INTEL_DESK_LIBRARY_SECRET is bound to an origin: the saved service, or INTEL_DESK_LIBRARY_SECRET_ORIGIN. A run
 * naming another service is refused before anything is sent, which a real loopback server here records.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeskCore } from '../../src/core';
import { tempDir } from '../core/helpers';
import { runCli } from './run-cli';

const SECRET = 'cli-env-secret-4b1e9d';

interface Seen {
  path: string;
  authorization: string | undefined;
}

let server: Server;
let url: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ error: 'not_found', message: 'nothing here' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
});

/** The CLI with nothing from the caller's shell that names a service, a secret or its origin. */
function cli(dataDir: string, args: string[], env: Record<string, string | undefined> = {}, input?: string) {
  return runCli(
    args,
    {
      INTEL_DESK_DATA_DIR: dataDir,
      INTEL_DESK_SERVICE_URL: undefined,
      INTEL_DESK_LIBRARY_SECRET_ORIGIN: undefined,
      INTEL_DESK_LIBRARY_SECRET: SECRET,
      INTEL_DESK_PASSPHRASE: undefined,
      INTEL_DESK_PRIVATE_KEY: undefined,
      ...env,
    },
    undefined,
    input,
  );
}

const carried = () => seen.filter((request) => request.authorization !== undefined);

describe('the environment library secret is bound to an origin', () => {
  it('refuses a --service other than the saved one, with exit code 2, and sends nothing there', async () => {
    const data = tempDir('desk-cli-secret-origin-');
    try {
      const run = await cli(data.dir, ['bundle', 'get', 'alice', '--service', url]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('INTEL_DESK_LIBRARY_SECRET is bound to http://127.0.0.1:8402');
      expect(run.stderr).toContain(`this run's service is ${url}: nothing was sent`);
      expect(run.stderr).toContain(`INTEL_DESK_LIBRARY_SECRET_ORIGIN=${url}`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(seen).toEqual([]);

      // INTEL_DESK_SERVICE_URL names a run's service just as --service does.
      const viaEnv = await cli(data.dir, ['menu', 'alice'], { INTEL_DESK_SERVICE_URL: url });
      expect(viaEnv.code).toBe(2);
      expect(seen).toEqual([]);

      // `secret set` reading the secret from the environment asks the service about it: the same binding.
      const set = await cli(data.dir, ['secret', 'set', '--service', url]);
      expect(set.code).toBe(2);
      expect(set.stderr).toContain('nothing was sent');
      expect(seen).toEqual([]);
    } finally {
      data.remove();
    }
  }, 60_000);

  it('refuses a service other than INTEL_DESK_LIBRARY_SECRET_ORIGIN, and sends it where that names', async () => {
    const data = tempDir('desk-cli-secret-origin-');
    try {
      const other = await cli(data.dir, ['bundle', 'get', 'alice', '--service', url], {
        INTEL_DESK_LIBRARY_SECRET_ORIGIN: 'https://reports.example.com',
      });
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(
        'bound to https://reports.example.com (named by INTEL_DESK_LIBRARY_SECRET_ORIGIN)',
      );
      expect(seen).toEqual([]);

      const bad = await cli(data.dir, ['bundle', 'get', 'alice', '--service', url], {
        INTEL_DESK_LIBRARY_SECRET_ORIGIN: 'not a url',
      });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('INTEL_DESK_LIBRARY_SECRET_ORIGIN must be a URL');
      expect(seen).toEqual([]);

      await cli(data.dir, ['bundle', 'get', 'alice', '--service', url], {
        INTEL_DESK_LIBRARY_SECRET_ORIGIN: url,
      });
      expect(carried().length).toBeGreaterThan(0);
      expect(carried().every((request) => request.authorization === `Bearer ${SECRET}`)).toBe(true);
    } finally {
      data.remove();
    }
  }, 60_000);

  it('sends it to the saved service when the run names none', async () => {
    const data = tempDir('desk-cli-secret-origin-');
    try {
      const desk = await createDeskCore({ dataDir: data.dir });
      await desk.handlers['settings.update']({ serviceUrl: url });
      await desk.close();

      await cli(data.dir, ['bundle', 'get', 'alice']);
      expect(carried().length).toBeGreaterThan(0);
      seen.length = 0;
      // Naming the saved service again is the same origin.
      await cli(data.dir, ['bundle', 'get', 'alice', '--service', `${url}/`]);
      expect(carried().length).toBeGreaterThan(0);
    } finally {
      data.remove();
    }
  }, 60_000);
});
