import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

describe('npm run service', () => {
  it('prints one JSON line, serves, and stops with its chain on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stdout });
      const [line] = (await once(lines, 'line')) as [string];
      const info = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(info)).toEqual([
        'baseUrl',
        'rpcUrl',
        'chainId',
        'asset',
        'payTo',
        'unitPriceUsd',
        'buyerKeys',
        'librarySecret',
      ]);
      expect(info['chainId']).toBe(31337);
      const shelf = (await (await fetch(`${String(info['baseUrl'])}/api/intel/list`)).json()) as {
        entries: unknown[];
      };
      expect(shelf.entries.length).toBeGreaterThanOrEqual(50);

      const rpc = await fetch(String(info['rpcUrl']), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(((await rpc.json()) as { result: string }).result).toBe('0x7a69');

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      // The chain went down with the service: nothing answers on its port any more.
      await expect(fetch(String(info['rpcUrl']), { method: 'POST', body: '{}' })).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
