import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkedHandlers } from '../../src/core/handlers/door';
import { DeskError } from '../../src/core/base/errors';
import { rpcInputs, type RpcHandlers } from '../../src/shared/rpc';
import { startWebHost, type WebHost } from '../../src/host/server';
import { TOKEN_HEADER } from '../../src/shared/bridge';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from '../../src/host/csp';
import { errorCodeFrom } from '../../src/shared/error-codes';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  host: WebHost,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let host: WebHost;
let root: string;
const calls: unknown[] = [];
const logged: unknown[] = [];

/** Every method refuses except the few these transport tests call; each checks its input at core's door. */
function handlers(): RpcHandlers {
  const refuse = async () => {
    throw new DeskError(errorCodeFrom('not_here'), 'Not part of this test.');
  };
  const table = Object.fromEntries(Object.keys(rpcInputs).map((m) => [m, refuse])) as unknown as RpcHandlers;
  table['app.info'] = async (input) => {
    calls.push(input);
    return { version: 't', serviceUrl: 'http://127.0.0.1:1', demo: true, online: true };
  };
  table['library.search'] = async ({ text }) => {
    if (text === 'boom') throw new Error('secret internals at /home/x/desk.db');
    throw new DeskError(errorCodeFrom('search_refused'), 'That search cannot run.');
  };
  return checkedHandlers(table);
}

const rpc = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  send(host, {
    path: `/rpc/${method}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [TOKEN_HEADER]: host.token,
      host: `127.0.0.1:${host.port}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'desk-host-'));
  mkdirSync(path.join(root, 'renderer', 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(root, 'renderer', 'assets', 'a.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'outside.json'), '{"secret":1}');
  host = await startWebHost({
    handlers: handlers(),
    rendererDir: path.join(root, 'renderer'),
    log: (e) => logged.push(e),
  });
});
afterAll(async () => {
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('web host', () => {
  it('listens on loopback with a random port and a long token in the URL fragment', () => {
    expect(host.port).toBeGreaterThan(0);
    expect(host.token.length).toBeGreaterThanOrEqual(40);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
  });

  it('serves the renderer with the CSP and refuses paths outside it', async () => {
    const index = await send(host, { path: '/', headers: { host: `localhost:${host.port}` } });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const asset = await send(host, { path: '/assets/a.js' });
    expect(asset.headers['content-type']).toMatch(/javascript/);
    for (const sneaky of ['/../outside.json', '/%2e%2e/outside.json', '/assets/..%2f..%2foutside.json']) {
      const reply = await send(host, { path: sneaky });
      expect(reply.status, sneaky).toBe(404);
      expect(reply.body).not.toContain('secret');
    }
  });

  it('answers RPC only with the run token', async () => {
    const ok = await rpc('app.info', {});
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { version: 't' } });
    for (const token of ['', 'x', host.token.slice(1), `${host.token}x`]) {
      const refused = await rpc('app.info', {}, { [TOKEN_HEADER]: token });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 'bad_token' } });
    }
    expect(calls).toHaveLength(1);
  });

  it('refuses a foreign Host header (DNS rebinding), even with the token', async () => {
    for (const name of [
      'evil.example',
      `evil.example:${host.port}`,
      `127.0.0.1:${host.port + 1}`,
      '127.0.0.1',
    ]) {
      const reply = await rpc('app.info', {}, { host: name });
      expect(reply.status, name).toBe(421);
    }
    const page = await send(host, { path: '/', headers: { host: `attacker.test:${host.port}` } });
    expect(page.status).toBe(421);
  });

  it('refuses cross-site requests by Origin and Sec-Fetch-Site', async () => {
    expect((await rpc('app.info', {}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await rpc('app.info', {}, { origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await rpc('app.info', {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await rpc('app.info', {}, { origin: `http://localhost:${host.port}` })).status).toBe(200);
    expect((await rpc('app.info', {}, { origin: host.origin, 'sec-fetch-site': 'same-origin' })).status).toBe(
      200,
    );
  });

  it('accepts only JSON POSTs', async () => {
    expect((await rpc('app.info', {}, { 'content-type': 'text/plain' })).status).toBe(415);
    const form = await rpc('app.info', {}, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const get = await send(host, { path: '/rpc/app.info', headers: { [TOKEN_HEADER]: host.token } });
    expect(get.status).toBe(405);
    const broken = await send(host, {
      path: '/rpc/app.info',
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: host.token },
      body: '{not json',
    });
    expect(JSON.parse(broken.body)).toMatchObject({ ok: false, error: { code: 'bad_json' } });
  });

  it('validates input, names unknown methods, and turns errors into codes without internals', async () => {
    const unknown = JSON.parse((await rpc('wallet.exportKey', {})).body);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    const proto = JSON.parse((await rpc('constructor', {})).body);
    expect(proto).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    const invalid = JSON.parse((await rpc('library.search', { text: '' })).body);
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const refused = JSON.parse((await rpc('library.search', { text: 'x' })).body);
    expect(refused).toEqual({
      ok: false,
      error: { code: 'search_refused', message: 'That search cannot run.' },
    });
    const crashed = await rpc('library.search', { text: 'boom' });
    expect(JSON.parse(crashed.body)).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(crashed.body).not.toContain('desk.db');
    expect(crashed.body).not.toContain('at ');
    expect(logged).toHaveLength(1);
  });

  it('answers a malformed %-escape in the method with 400, after the Host, Origin and token checks, logging nothing', async () => {
    const before = logged.length;
    for (const bad of ['%E0%A4%A', '%zz', 'app.info%']) {
      const reply = await rpc(bad, {});
      expect(reply.status, bad).toBe(400);
      expect(JSON.parse(reply.body), bad).toMatchObject({ ok: false, error: { code: 'bad_method' } });
      expect((await rpc(bad, {}, { [TOKEN_HEADER]: 'x' })).status, bad).toBe(401);
      expect((await rpc(bad, {}, { origin: 'http://evil.example' })).status, bad).toBe(403);
      expect((await rpc(bad, {}, { host: 'evil.example' })).status, bad).toBe(421);
    }
    // A well-formed escape still names its method.
    expect((await rpc('app%2Einfo', {})).status).toBe(200);
    expect(logged).toHaveLength(before);
  });

  it('refuses bodies over the size limit', async () => {
    const reply = await rpc('library.search', { text: 'x'.repeat(1_100_000) });
    expect(reply.status).toBe(413);
  });
});

describe('one CSP everywhere', () => {
  it('Electron and the page meta tag carry the same policy as the web host', () => {
    const electron = readFileSync(path.join(__dirname, '../../electron/csp.ts'), 'utf8');
    expect(electron).toContain(`"${CONTENT_SECURITY_POLICY}"`);
    const html = readFileSync(path.join(__dirname, '../../src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    // frame-ancestors is ignored in a meta tag, so the page's copy leaves it out.
    expect(meta).toBe(CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", ''));
  });
});

describe('a run given another WalletConnect relay', () => {
  it('names exactly that relay, and no other address, in the header and in the page it serves', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'desk-host-relay-'));
    const html = readFileSync(path.join(__dirname, '../../src/renderer/index.html'), 'utf8');
    writeFileSync(path.join(dir, 'index.html'), html);
    const relayHost = await startWebHost({
      handlers: handlers(),
      rendererDir: dir,
      walletConnectRelayUrl: 'ws://127.0.0.1:4321',
      log: (e) => logged.push(e),
    });
    try {
      const index = await send(relayHost, { path: '/' });
      const policy = index.headers['content-security-policy'];
      expect(policy).toBe(contentSecurityPolicy('ws://127.0.0.1:4321'));
      expect(policy).toContain("connect-src 'self' ws://127.0.0.1:4321;");
      expect(policy).not.toContain('walletconnect');
      const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(index.body)?.[1];
      expect(meta).toBe(String(policy).replace("; frame-ancestors 'none'", ''));
      // Every response carries it, an RPC answer included.
      const reply = await send(relayHost, { path: '/rpc/nothing', method: 'POST' });
      expect(reply.headers['content-security-policy']).toBe(policy);
    } finally {
      await relayHost.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
