/**
 * `npm start` itself (scripts/start.ts in browser mode) as a person runs it: the demo prints its library
 * secret, and never touches a data folder that holds someone's wallet.
 */
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createDeskCore } from '../../src/core';
import { tempDir } from '../core/helpers';

const root = path.resolve(import.meta.dirname, '../..');
/** A well-known anvil test key that is not the demo's buyer key. */
const OTHER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the output once `line` has been printed, or rejects when the script exits first. */
  waitFor(line: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

function npmStart(dataDir: string): Started {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/start.ts'), '--browser', '--data-dir', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  const listeners = new Set<() => void>();
  const take = (chunk: Buffer) => {
    text += chunk.toString();
    listeners.forEach((listener) => listener());
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    waitFor: (line) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!line.test(text)) return;
          listeners.delete(check);
          resolve(text);
        };
        listeners.add(check);
        check();
        void exited.then(() => (line.test(text) ? resolve(text) : reject(new Error(`exited:\n${text}`))));
      }),
  };
}

describe.skipIf(process.platform === 'win32')('npm start (the demo)', () => {
  it('prints the demo library secret, which the demo service accepts', async () => {
    const data = tempDir('desk-start-');
    const started = npmStart(data.dir);
    try {
      const output = await started.waitFor(/Ctrl-C stops everything/);
      const service = /Demo service (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const secret = /Demo library secret[^:]*: (\S+)/.exec(output)?.[1];
      expect(service).toBeTruthy();
      expect(secret).toBeTruthy();
      const shelf = (await (await fetch(`${service}/api/intel/list`)).json()) as {
        entries: { username: string }[];
      };
      const bundle = await fetch(`${service}/api/intel/bundle?username=${shelf.entries[0]!.username}`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
      expect(bundle.status).toBe(200);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
      data.remove();
    }
  }, 300_000);

  it("stops on a real desk's folder and leaves its wallet byte-identical", async () => {
    const data = tempDir('desk-start-');
    try {
      const desk = await createDeskCore({ dataDir: data.dir, serviceUrl: 'https://reports.example.com' });
      await desk.handlers['wallet.import']({ privateKey: OTHER_KEY, passphrase: 'my own wallet passphrase' });
      await desk.close();
      const wallet = readFileSync(path.join(data.dir, 'wallet.json'));
      const started = npmStart(data.dir);
      const outcome = await Promise.race([
        started.exited,
        started.waitFor(/Ctrl-C stops everything/).then(
          () => 'running' as const,
          () => new Promise<never>(() => undefined),
        ),
      ]);
      if (outcome === 'running') {
        started.child.kill('SIGTERM');
        await started.exited;
      }
      expect(outcome).toBe(1);
      expect(started.output()).toMatch(
        /holds a wallet that is not the demo's .*nothing was changed, and the library is untouched/,
      );
      expect(readFileSync(path.join(data.dir, 'wallet.json')).equals(wallet)).toBe(true);
    } finally {
      data.remove();
    }
  }, 300_000);
});
