/**
 * The CLI and the MCP server honour the environment of a network at work
 * (decision 0046): HTTPS_PROXY, NO_PROXY and NODE_EXTRA_CA_CERTS, in a real child process, against the
 * reference service behind HTTPS with a certificate from a test CA and a CONNECT proxy that records tunnels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { tempDir } from '../core/helpers';
import {
  makeTestCa,
  startConnectProxy,
  startTlsFront,
  type ConnectProxy,
  type TestCa,
  type TlsFront,
} from '../core/work-network';
import { runCli, stackEnv, startCli } from './run-cli';

let stack: Stack;
let ca: TestCa;
let front: TlsFront;
let proxy: ConnectProxy;
let guarded: ConnectProxy;
const dirs: ReturnType<typeof tempDir>[] = [];

/** Nothing from the shell running the tests: each case sets what it means. */
const NO_NETWORK_ENV = {
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
  NODE_EXTRA_CA_CERTS: undefined,
};

beforeAll(async () => {
  const caDir = tempDir('desk-cli-ca-');
  dirs.push(caDir);
  ca = makeTestCa(caDir.dir);
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 } });
  front = await startTlsFront(ca, () => stack.baseUrl);
  proxy = await startConnectProxy();
  guarded = await startConnectProxy({ credentials: 'analyst:s3cret' });
});
afterAll(async () => {
  await Promise.all([front?.close(), proxy?.close(), guarded?.close()]);
  await stack?.stop();
  dirs.forEach((dir) => dir.remove());
});

function list(env: Record<string, string>) {
  const data = tempDir('desk-cli-proxy-');
  dirs.push(data);
  return runCli(['list', '--json'], {
    ...stackEnv(stack, data.dir),
    ...NO_NETWORK_ENV,
    INTEL_DESK_SERVICE_URL: front.url('0.0.0.0'),
    ...env,
  });
}

describe('intel-desk behind a proxy and TLS inspection', () => {
  it('refuses a certificate it was not told to trust, then trusts NODE_EXTRA_CA_CERTS', async () => {
    const refused = await list({});
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain(`The certificate 0.0.0.0:${front.port} presented is not signed`);
    expect(refused.stderr).toContain('for the CLI set NODE_EXTRA_CA_CERTS to that PEM file');

    const trusted = await list({ NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect((JSON.parse(trusted.stdout) as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
  });

  it('goes through HTTPS_PROXY, and around it for a host NO_PROXY names', async () => {
    const before = proxy.tunnels.length;
    const through = await list({ NODE_EXTRA_CA_CERTS: ca.caFile, HTTPS_PROXY: proxy.url });
    expect(through.code, through.stderr).toBe(0);
    expect(proxy.tunnels.slice(before)).toContain(`0.0.0.0:${front.port}`);

    const after = proxy.tunnels.length;
    const around = await list({
      NODE_EXTRA_CA_CERTS: ca.caFile,
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '0.0.0.0',
    });
    expect(around.code, around.stderr).toBe(0);
    expect(proxy.tunnels.length).toBe(after);
  });

  it('says a proxy wants credentials (407), and passes those given in https_proxy', async () => {
    const refused = await list({ NODE_EXTRA_CA_CERTS: ca.caFile, HTTPS_PROXY: guarded.url });
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain(
      `The proxy ${guarded.url} (from HTTPS_PROXY) asks for a user name and password (HTTP 407)`,
    );

    const withCredentials = guarded.url.replace('http://', 'http://analyst:s3cret@');
    const passed = await list({ NODE_EXTRA_CA_CERTS: ca.caFile, https_proxy: withCredentials });
    expect(passed.code, passed.stderr).toBe(0);
    expect(guarded.authorizations.at(-1)).toBe(`Basic ${Buffer.from('analyst:s3cret').toString('base64')}`);
  });

  it('refuses with exit 2 an HTTPS_PROXY that is no proxy address, naming it', async () => {
    const run = await list({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      'The environment variable HTTPS_PROXY does not hold a proxy Intel Desk can use',
    );
  });
});

const message = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

/** One MCP session on stdio: initialize, then the shelf tool; what the tool answered. */
async function mcpShelf(env: Record<string, string>): Promise<{ isError: boolean; text: string }> {
  const data = tempDir('desk-mcp-proxy-');
  dirs.push(data);
  const initialize = message(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  const { done } = startCli(
    ['mcp'],
    { ...stackEnv(stack, data.dir), ...NO_NETWORK_ENV, INTEL_DESK_SERVICE_URL: front.url('0.0.0.0'), ...env },
    undefined,
    `${initialize}${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${message(2, 'tools/call', { name: 'list_shelf', arguments: {} })}`,
  );
  const run = await done;
  const answer = run.stdout
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as { id: number; result?: { isError?: boolean; content?: { text?: string }[] } },
    )
    .find((line) => line.id === 2);
  return {
    isError: answer?.result?.isError === true,
    text: (answer?.result?.content ?? []).map((part) => part.text ?? '').join('\n'),
  };
}

describe('intel-desk mcp behind a proxy', () => {
  it('reads the shelf through HTTPS_PROXY, and says the 407 of a proxy that wants credentials', async () => {
    const before = proxy.tunnels.length;
    const through = await mcpShelf({ NODE_EXTRA_CA_CERTS: ca.caFile, HTTPS_PROXY: proxy.url });
    expect(through.isError, through.text).toBe(false);
    expect(proxy.tunnels.slice(before)).toContain(`0.0.0.0:${front.port}`);

    const refused = await mcpShelf({ NODE_EXTRA_CA_CERTS: ca.caFile, HTTPS_PROXY: guarded.url });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('asks for a user name and password (HTTP 407)');
  });
});
