/**
 * A run's service and chain RPC, from flags or the environment, are refused in plain http off this computer
 * (decision 0040) with exit 2, naming where the address came from, before anything reaches it.
 * `http://0.0.0.0:port` names another host yet reaches the test's listener, so a missing refusal shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import { tempDir } from '../core/helpers';
import { startFlakyProxy, type FlakyProxy } from '../core/flaky-proxy';
import { runCli, stackEnv } from './run-cli';
import { openDeskDb } from '../../src/core/db/open';
import { SettingsStore } from '../../src/core/settings/settings';

let stack: Stack;
let service: FlakyProxy;
let chain: FlakyProxy;
let data: ReturnType<typeof tempDir>;

const elsewhere = (url: string) => url.replace('127.0.0.1', '0.0.0.0');

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 } });
  service = await startFlakyProxy(stack.baseUrl);
  chain = await startFlakyProxy(stack.rpcUrl);
  data = tempDir('desk-cli-transport-');
});
afterAll(async () => {
  await service?.close();
  await chain?.close();
  await stack?.stop();
  data?.remove();
});

describe('intel-desk given a plain-http address off this computer', () => {
  it('refuses --service, --rpc and their environment variables with exit 2', async () => {
    const cases: { args: string[]; env: Record<string, string>; from: string; url: string }[] = [
      {
        args: ['--service', elsewhere(service.url)],
        env: {},
        from: '--service',
        url: elsewhere(service.url),
      },
      {
        args: [],
        env: { INTEL_DESK_SERVICE_URL: elsewhere(service.url) },
        from: 'INTEL_DESK_SERVICE_URL',
        url: elsewhere(service.url),
      },
      { args: ['--rpc', elsewhere(chain.url)], env: {}, from: '--rpc', url: elsewhere(chain.url) },
      {
        args: [],
        env: { INTEL_DESK_RPC_URL: elsewhere(chain.url) },
        from: 'INTEL_DESK_RPC_URL',
        url: elsewhere(chain.url),
      },
    ];
    for (const { args, env, from, url } of cases) {
      const run = await runCli(['list', ...args], { ...stackEnv(stack, data.dir), ...env });
      expect(run.code, `${from}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('insecure_transport');
      expect(run.stderr).toContain(url);
      expect(run.stderr).toContain(`with ${from}`);
    }
    expect(service.requests + chain.requests).toBe(0);
    // The same listeners named as this computer are used.
    const local = await runCli(
      ['list', '--service', service.url, '--rpc', chain.url],
      stackEnv(stack, data.dir),
    );
    expect(local.code, local.stderr).toBe(0);
    expect(service.requests).toBeGreaterThan(0);
  });

  it('says a chain RPC saved in plain http by an earlier version is not used', async () => {
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    new SettingsStore(db).update({ chainRpcUrl: elsewhere(chain.url) });
    db.close();
    const env = { ...stackEnv(stack, data.dir), INTEL_DESK_RPC_URL: undefined };
    const run = await runCli(['wallet', 'status'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `chain RPC ${elsewhere(chain.url)} (chosen in Settings): not used, as it is plain http to another host`,
    );
  });
});
