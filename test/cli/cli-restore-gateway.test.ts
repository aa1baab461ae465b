/**
 * `intel-desk restore` through a gateway (issue 40): a reverse proxy on loopback that keeps its own Host and adds
 * X-Forwarded-Host. With the service given its public URL, every challenge names the gateway and every report
 * comes back; without it, the desk refuses a sign-in for another origin, signs nothing, and says why and what to
 * do. The service never takes its origin from Host or X-Forwarded-Host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startService, startStack, type ServiceOnChain, type Stack } from '../../src/service/stack';
import type { RestoreSummary } from '../../src/shared/rpc';
import { balanceOf, ledgerRows, storedSnapshots, tempDir } from '../core/helpers';
import { startGateway, type Gateway } from '../core/gateway';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let gateway: Gateway;
let folders: ReturnType<typeof tempDir>[] = [];
let keyFile: string;
let handles: string[];

function folder(): string {
  const made = tempDir('desk-cli-gateway-');
  folders.push(made);
  return made.dir;
}
const cli = (dataDir: string, args: string[], serviceUrl = gateway.url): Promise<Run> =>
  runCli(args, { ...stackEnv(stack, dataDir), INTEL_DESK_SERVICE_URL: serviceUrl });

interface Challenge {
  resource: { url: string };
  extensions: { 'sign-in-with-x': { info: { domain: string; uri: string; resources: string[] } } };
}

beforeAll(async () => {
  // The gateway's URL is known before the service starts, as an operator's is.
  gateway = await startGateway();
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    publicUrl: `${gateway.url}/`,
  });
  gateway.target = stack.baseUrl;
  const keys = tempDir('desk-cli-gateway-keys-');
  folders.push(keys);
  keyFile = path.join(keys.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  const shelf = (await (await fetch(`${gateway.url}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
});

afterAll(async () => {
  await gateway?.close();
  await stack?.stop();
  for (const made of folders) made.remove();
  folders = [];
});

describe('the reference service behind a gateway', () => {
  it('names its public URL in every challenge, whatever Host or X-Forwarded-Host a request carries', async () => {
    expect(stack.publicUrl).toBe(gateway.url);
    for (const [url, headers] of [
      [`${gateway.url}/api/intel/reports?username=${handles[0]}&select=all`, {}],
      [`${gateway.url}/api/intel/purchases`, {}],
      // Straight to the listen address, claiming another site: the challenge still names the public URL.
      [
        `${stack.baseUrl}/api/intel/purchases`,
        { Host: 'relay.example', 'X-Forwarded-Host': 'relay.example', 'X-Forwarded-Proto': 'https' },
      ],
    ] as const) {
      const answer = await fetch(url, { headers });
      expect(answer.status).toBe(402);
      const challenge = (await answer.json()) as Challenge;
      const { pathname, search } = new URL(url);
      expect(challenge.resource.url).toBe(`${gateway.url}${pathname}${search}`);
      const info = challenge.extensions['sign-in-with-x'].info;
      expect(info.domain).toBe(new URL(gateway.url).host);
      expect(new URL(info.uri).origin).toBe(gateway.url);
      expect(info.resources.every((r) => r.startsWith(`${gateway.url}/`))).toBe(true);
    }
  });

  it('restores every report through the gateway when the service knows its public URL', async () => {
    const library = folder();
    const bought = await cli(library, ['buy', handles[0]!, '--all', '--yes', '--key-file', keyFile]);
    expect(bought.code, bought.stderr).toBe(0);
    const ids = storedSnapshots(library)
      .map((s) => s.id)
      .sort();
    expect(ids).toHaveLength(4);
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(path.join(library, `desk.db${suffix}`), { force: true });
    const payeeBefore = await balanceOf(stack, stack.payTo);

    const run = await cli(library, ['restore', '--key-file', keyFile, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(parsed<RestoreSummary>(run)).toMatchObject({ purchases: 1, restoredPurchases: 1, reports: 4 });
    expect(
      storedSnapshots(library)
        .map((s) => s.id)
        .sort(),
    ).toEqual(ids);
    expect(ledgerRows(library)).toHaveLength(1);
    expect(gateway.signInsSeen).toHaveLength(1);
    expect(await balanceOf(stack, stack.payTo)).toBe(payeeBefore);
  });

  it('says which restored purchases the chain could not confirm, and shows them so', async () => {
    const dir = folder();
    // No chain RPC for the demo network: nothing to confirm the purchase with.
    const env = {
      ...stackEnv(stack, dir),
      INTEL_DESK_SERVICE_URL: gateway.url,
      INTEL_DESK_RPC_URL: undefined,
    };
    const run = await runCli(['restore', '--key-file', keyFile], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      '1 purchase not confirmed on chain (no chain RPC is set for their network, or it did not answer): kept as the service describes them, outside the spending caps and totals.',
    );
    const listed = await runCli(['purchases'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/spent today: \$0\.00 of/);
    expect(listed.stdout).toMatch(/up to \$0\.04 .*restored; not confirmed on chain, outside the caps/);
  });

  it('without its public URL, the desk signs nothing and names the cause and the remedy', async () => {
    const dataDir = folder();
    const behind: ServiceOnChain = await startService(stack.chain, {
      dataDir,
      unitPriceUsd: stack.unitPriceUsd,
      librarySecret: stack.librarySecret,
      seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 },
    });
    const other = await startGateway(behind.baseUrl);
    try {
      const run = await cli(folder(), ['restore', '--key-file', keyFile], other.url);
      expect(run.code).not.toBe(0);
      const said = run.stderr.replace(/\s+/g, ' ');
      expect(said).toContain(
        `The service announces another address (${behind.baseUrl}) than the one the desk asked (${other.url}), so nothing was signed.`,
      );
      expect(said).toContain('A service behind a gateway or proxy must be given its public URL');
      expect(said).toContain(`INTEL_DESK_SERVICE_PUBLIC_URL=${other.url}`);
      expect(other.signInsSeen).toEqual([]);
    } finally {
      await other.close();
      await behind.close();
    }
  });
});
