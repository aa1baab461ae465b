/**
 * Networks as they are at work (decision 0046), against real parts: the reference service and anvil behind
 * HTTPS with a certificate from a CA made in the test, and a CONNECT proxy that records what passes through it.
 * `0.0.0.0` names the front as another host would be named (not loopback, so it may be proxied), yet reaches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { DeskNetwork } from '../../src/core/net/network';
import { ChainClients } from '../../src/core/payments/chain-rpc';
import { balanceOf, deskFor, failure, PASSPHRASE, tempDir } from './helpers';
import {
  makeTestCa,
  startConnectProxy,
  startTlsFront,
  type ConnectProxy,
  type TestCa,
  type TlsFront,
} from './work-network';

let stack: Stack;
let ca: TestCa;
let service: TlsFront;
let rpc: TlsFront;
let proxy: ConnectProxy;
let guarded: ConnectProxy;
const dirs: ReturnType<typeof tempDir>[] = [];
const desks: DeskCore[] = [];

beforeAll(async () => {
  const caDir = tempDir('desk-test-ca-');
  dirs.push(caDir);
  ca = makeTestCa(caDir.dir);
  // The front first, so the service's challenges can name it as the origin a desk reaches it at.
  service = await startTlsFront(ca, () => stack.baseUrl);
  rpc = await startTlsFront(ca, () => stack.rpcUrl);
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
    publicUrl: service.url('0.0.0.0'),
  });
  proxy = await startConnectProxy();
  guarded = await startConnectProxy({ credentials: 'analyst:s3cret pass' });
});
afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()));
  await Promise.all([service?.close(), rpc?.close(), proxy?.close(), guarded?.close()]);
  await stack?.stop();
  dirs.forEach((dir) => dir.remove());
});

/** A desk on the HTTPS front at `host`, with this environment and nothing from the test runner's own. */
async function desk(host: string, environment: Record<string, string> = {}): Promise<DeskCore> {
  const dir = tempDir('desk-work-network-');
  dirs.push(dir);
  const opened = await deskFor(stack, dir.dir, { serviceUrl: service.url(host), environment });
  desks.push(opened);
  return opened;
}

describe('certificates', () => {
  it('refuses a service whose certificate no trusted authority signed, naming the setting, then trusts the CA file', async () => {
    const d = await desk('localhost');
    const error = await failure(d.handlers['shelf.list']({}));
    expect(error).toMatchObject({
      code: 'certificate_untrusted',
      kind: 'network',
      details: { notSent: true },
    });
    expect(error.message).toContain(
      `The certificate localhost:${service.port} presented is not signed by an authority Intel Desk trusts`,
    );
    expect(error.message).toContain('Settings → Network (CA certificates file)');
    expect(error.message).toContain('nothing was sent');

    const view = await d.handlers['settings.update']({ caFile: ca.caFile });
    expect(view.network.caFile).toBe(ca.caFile);
    expect((await d.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);

    // Back to none: refused again (the shelf read earlier is shown, marked stale with the reason), so the
    // file, not a connection kept open, is what made it work.
    await d.handlers['settings.update']({ caFile: null });
    const stale = await d.handlers['shelf.list']({});
    expect(stale.stale).toBe(true);
    expect(stale.staleReason).toContain('Settings → Network (CA certificates file)');
  });

  it('refuses on save a file that holds no certificate, and changes nothing', async () => {
    const d = await desk('localhost');
    const notPem = path.join(dirs[0]!.dir, 'not-a-certificate.pem');
    writeFileSync(notPem, 'this is a key, not a certificate\n');
    const error = await failure(d.handlers['settings.update']({ caFile: notPem }));
    expect(error).toMatchObject({ code: 'ca_file_invalid', kind: 'usage' });
    expect(error.message).toContain(`The CA certificates file ${notPem} holds no PEM certificate`);
    expect((await d.handlers['settings.get']({})).network.caFile).toBeNull();
    expect(await failure(d.handlers['settings.update']({ caFile: 'relative/ca.pem' }))).toMatchObject({
      code: 'invalid_input',
    });
  });
});

describe('a proxy from the environment', () => {
  it('carries the service through a CONNECT tunnel named HTTPS_PROXY, and never as a plain forward', async () => {
    const d = await desk('0.0.0.0', { HTTPS_PROXY: proxy.url });
    await d.handlers['settings.update']({ caFile: ca.caFile });
    const before = proxy.tunnels.length;
    expect((await d.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    expect(proxy.tunnels.slice(before)).toContain(`0.0.0.0:${service.port}`);
    expect(proxy.forwarded).toEqual([]);
  });

  it('reads the lower-case form first, as curl and undici do', async () => {
    const d = await desk('0.0.0.0', { https_proxy: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:9' });
    await d.handlers['settings.update']({ caFile: ca.caFile });
    const before = proxy.tunnels.length;
    await d.handlers['shelf.list']({});
    expect(proxy.tunnels.length).toBeGreaterThan(before);
    expect((await d.handlers['settings.get']({})).network.environment).toMatchObject({
      proxy: proxy.url,
      variable: 'https_proxy',
    });
  });

  it('goes directly to a host NO_PROXY names, and to this computer whatever NO_PROXY says', async () => {
    const before = proxy.tunnels.length;
    const exempt = await desk('0.0.0.0', { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.org, 0.0.0.0' });
    await exempt.handlers['settings.update']({ caFile: ca.caFile });
    expect((await exempt.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    const local = await desk('localhost', { HTTPS_PROXY: proxy.url });
    await local.handlers['settings.update']({ caFile: ca.caFile });
    expect((await local.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    expect(proxy.tunnels.length).toBe(before);
  });

  it('says the proxy wants credentials (407), naming the variable to change; nothing reaches the service', async () => {
    const d = await desk('0.0.0.0', { HTTPS_PROXY: guarded.url });
    await d.handlers['settings.update']({ caFile: ca.caFile });
    const error = await failure(d.handlers['shelf.list']({}));
    expect(error).toMatchObject({ code: 'proxy_auth_required', kind: 'network', details: { notSent: true } });
    expect(error.message).toBe(
      `The proxy ${guarded.url} (from HTTPS_PROXY) asks for a user name and password (HTTP 407). Give them in the proxy address, as http://user:password@${new URL(guarded.url).host}, in HTTPS_PROXY, or choose another in Settings → Network; nothing was sent to 0.0.0.0:${service.port}.`,
    );
  });

  it('refuses an HTTPS_PROXY that is no proxy address, naming the variable', async () => {
    const d = await desk('0.0.0.0', { HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    const error = await failure(d.handlers['shelf.list']({}));
    expect(error).toMatchObject({ code: 'proxy_invalid', kind: 'usage' });
    expect(error.message).toMatch(
      /^The environment variable HTTPS_PROXY does not hold a proxy .* not socks5:\/\//,
    );
    expect((await d.handlers['settings.get']({})).network.environment.problem).toBe(error.message);
  });
});

describe('a proxy chosen in Settings', () => {
  it('overrides the environment, keeps its credentials in core, and shows them masked', async () => {
    const d = await desk('0.0.0.0', { HTTPS_PROXY: 'http://127.0.0.1:9' });
    await d.handlers['settings.update']({ caFile: ca.caFile });
    const withCredentials = guarded.url.replace('http://', 'http://analyst:s3cret%20pass@');
    const view = await d.handlers['settings.update']({
      proxy: { mode: 'manual', url: withCredentials, noProxy: [] },
    });
    expect(view.network.proxy).toEqual({
      mode: 'manual',
      url: guarded.url.replace('http://', 'http://•••@'),
      noProxy: [],
    });
    expect(JSON.stringify(view)).not.toMatch(/s3cret|analyst/);

    const before = guarded.tunnels.length;
    expect((await d.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    expect(guarded.authorizations.slice(before).at(-1)).toBe(
      `Basic ${Buffer.from('analyst:s3cret pass').toString('base64')}`,
    );

    // Changing the exceptions without the address keeps the saved address and its credentials.
    await d.handlers['settings.update']({ proxy: { mode: 'manual', noProxy: ['example.org'] } });
    await d.handlers['settings.update']({ caFile: ca.caFile });
    expect((await d.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    expect((await d.handlers['settings.get']({})).network.proxy).toMatchObject({ noProxy: ['example.org'] });
  });

  it("keeps the credentials out of desk.db, sealed beside it, and moves an older desk.db's out at open", async () => {
    const dir = tempDir('desk-proxy-sealed-');
    dirs.push(dir);
    const withCredentials = guarded.url.replace('http://', 'http://analyst:s3cret%20pass@');
    const storedSettings = () => {
      const db = new Database(path.join(dir.dir, 'desk.db'), { readonly: true });
      try {
        return JSON.stringify(db.prepare('SELECT key, value FROM settings').all());
      } finally {
        db.close();
      }
    };
    const first = await deskFor(stack, dir.dir, { serviceUrl: service.url('0.0.0.0'), environment: {} });
    await first.handlers['settings.update']({
      caFile: ca.caFile,
      proxy: { mode: 'manual', url: withCredentials, noProxy: [] },
    });
    await first.close();
    expect(storedSettings()).toContain(guarded.url);
    expect(storedSettings()).not.toMatch(/s3cret|analyst/);
    expect(readFileSync(path.join(dir.dir, 'proxy-credentials.sealed'), 'utf8')).not.toMatch(
      /s3cret|analyst/,
    );

    // An older release kept the whole address in desk.db: the next open seals its credentials and still uses them.
    const db = new Database(path.join(dir.dir, 'desk.db'));
    db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(
      JSON.stringify({ mode: 'manual', url: withCredentials, noProxy: [] }),
      'proxy',
    );
    db.close();
    rmSync(path.join(dir.dir, 'proxy-credentials.sealed'));
    const again = await deskFor(stack, dir.dir, { serviceUrl: service.url('0.0.0.0'), environment: {} });
    desks.push(again);
    expect(storedSettings()).not.toMatch(/s3cret|analyst/);
    const before = guarded.authorizations.length;
    expect((await again.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    expect(guarded.authorizations.slice(before).at(-1)).toBe(
      `Basic ${Buffer.from('analyst:s3cret pass').toString('base64')}`,
    );

    // Another proxy given: the credentials are not carried to it, and going direct forgets them.
    await again.handlers['settings.update']({ proxy: { mode: 'manual', url: proxy.url, noProxy: [] } });
    expect(existsSync(path.join(dir.dir, 'proxy-credentials.sealed'))).toBe(false);
    await again.handlers['settings.update']({ proxy: { mode: 'manual', url: withCredentials, noProxy: [] } });
    await again.handlers['settings.update']({ proxy: { mode: 'direct' } });
    expect(existsSync(path.join(dir.dir, 'proxy-credentials.sealed'))).toBe(false);
  });

  it('names Settings in the 407 when the address there has no credentials, and goes direct when told to', async () => {
    const d = await desk('0.0.0.0', { HTTPS_PROXY: guarded.url });
    await d.handlers['settings.update']({
      caFile: ca.caFile,
      proxy: { mode: 'manual', url: guarded.url, noProxy: [] },
    });
    const error = await failure(d.handlers['shelf.list']({}));
    expect(error.message).toContain('(from Settings → Network)');
    expect(error.message).toContain('in Settings → Network; nothing was sent');

    const before = guarded.tunnels.length;
    await d.handlers['settings.update']({ proxy: { mode: 'direct' } });
    expect((await d.handlers['shelf.list']({})).entries.length).toBeGreaterThan(0);
    expect(guarded.tunnels.length).toBe(before);
  });

  it('says a proxy that refuses the tunnel refused it, and one that is not there cannot be reached', async () => {
    const refusing = await startConnectProxy({ refuse: [`0.0.0.0:${service.port}`] });
    try {
      const d = await desk('0.0.0.0', { HTTPS_PROXY: refusing.url });
      await d.handlers['settings.update']({ caFile: ca.caFile });
      expect(await failure(d.handlers['shelf.list']({}))).toMatchObject({
        code: 'proxy_refused',
        message: `The proxy ${refusing.url} (from HTTPS_PROXY) refused to open a connection to 0.0.0.0:${service.port} (HTTP 403). Ask your network's administrators to allow 0.0.0.0:${service.port}, or change the proxy in HTTPS_PROXY, or choose another in Settings → Network; nothing was sent.`,
      });
    } finally {
      await refusing.close();
    }
    const gone = await desk('0.0.0.0', { HTTPS_PROXY: refusing.url });
    await gone.handlers['settings.update']({ caFile: ca.caFile });
    const error = await failure(gone.handlers['shelf.list']({}));
    expect(error).toMatchObject({ code: 'proxy_unreachable', details: { notSent: true } });
    expect(error.message).toContain(`Cannot reach the proxy ${refusing.url} (from HTTPS_PROXY)`);
  });
});

describe('the chain RPC', () => {
  it('goes through the same proxy, with the same certificate authorities', async () => {
    const network = new DeskNetwork(
      () => ({ proxy: { mode: 'environment' }, caFile: ca.caFile, systemCertificates: false }),
      { HTTPS_PROXY: proxy.url },
    );
    try {
      const before = proxy.tunnels.length;
      const client = new ChainClients(5_000, network.fetchForViem).client('eip155:31337', rpc.url('0.0.0.0'));
      expect(await client?.getChainId()).toBe(31337);
      expect(proxy.tunnels.slice(before)).toEqual([`0.0.0.0:${rpc.port}`]);
    } finally {
      await network.close();
    }
  });
});

describe('a purchase', () => {
  it('is paid through the proxy, and fails as never sent when the proxy then asks for credentials', async () => {
    const d = await desk('0.0.0.0');
    const withCredentials = guarded.url.replace('http://', 'http://analyst:s3cret%20pass@');
    await d.handlers['settings.update']({
      caFile: ca.caFile,
      proxy: { mode: 'manual', url: withCredentials, noProxy: [] },
    });
    // Tunnels stay open between requests: counted from before the first request of this desk.
    const before = guarded.tunnels.length;
    const key = stack.buyerKeys[0]!;
    const { address } = await d.handlers['wallet.import']({ privateKey: key, passphrase: PASSPHRASE });
    const handle = (await d.handlers['shelf.list']({})).entries[0]!.username;
    const ids = (await d.handlers['menu.get']({ handle })).reports.map((report) => report.id);
    const start = await balanceOf(stack, address as `0x${string}`);

    const first = await d.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: ids.slice(0, 1) } });
    const paid = await d.handlers['purchase.start']({
      quoteId: first.quoteId,
      confirmedAmount: first.amount,
    });
    expect(paid.status).toBe('completed');
    expect(await balanceOf(stack, address as `0x${string}`)).toBe(start - BigInt(first.amount));
    expect(guarded.tunnels.length).toBeGreaterThan(before);

    // The same proxy without the credentials: the paid request never gets through the tunnel.
    const second = await d.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 2) },
    });
    await d.handlers['settings.update']({ proxy: { mode: 'manual', url: guarded.url, noProxy: [] } });
    const refused = await d.handlers['purchase.start']({
      quoteId: second.quoteId,
      confirmedAmount: second.amount,
    });
    expect(refused).toMatchObject({ status: 'failed', purchase: { state: 'failed', movedUnits: '0' } });
    if (refused.status !== 'failed') return;
    expect(refused.message).toContain('asks for a user name and password (HTTP 407)');
    expect(refused.message).toContain('The payment never left this computer; no money moved.');
    expect(await balanceOf(stack, address as `0x${string}`)).toBe(start - BigInt(first.amount));
    const rows = await d.handlers['purchases.list']({});
    expect(JSON.stringify(rows)).not.toMatch(/in_doubt/);
  });
});
