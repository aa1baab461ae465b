/**
 * A stack that fails to start leaves nothing behind: neither its temporary data dir nor its anvil. TMPDIR points
 * at a directory of this file's own (each test file runs in its own process), so any leftover data dir shows up
 * there; anvil would be a child of this process.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type StackOptions } from '../../src/service/stack';

const SMALL_SEED = { handles: 2, minReportsPerHandle: 1, maxReportsPerHandle: 2 };
let privateTmp = '';
const savedTmpdir = process.env['TMPDIR'];
let busy: Server;
let busyPort = 0;

beforeEach(() => {
  privateTmp = mkdtempSync(path.join(savedTmpdir ?? tmpdir(), 'stack-start-failure-'));
  process.env['TMPDIR'] = privateTmp;
});

afterEach(() => {
  if (savedTmpdir === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTmpdir;
  if (privateTmp) rmSync(privateTmp, { recursive: true, force: true });
});

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve, reject) => {
    busy.once('error', reject);
    busy.listen(0, '127.0.0.1', () => resolve());
  });
  const address = busy.address();
  if (address === null || typeof address === 'string') throw new Error('no port for the busy server');
  busyPort = address.port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (busy ? busy.close(() => resolve()) : resolve()));
});

/** Pids of anvil processes whose parent is this test process. */
function anvilChildren(): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, comm]) => Number(ppid) === process.pid && comm === 'anvil')
    .map(([pid]) => Number(pid));
}

const failures: { name: string; options: () => StackOptions; message: RegExp }[] = [
  {
    name: 'anvil refuses its arguments (a fractional buyer count)',
    options: () => ({ buyerCount: 0.5, seed: SMALL_SEED }),
    message: /starting the local chain failed: anvil exited before listening[\s\S]*'--accounts/,
  },
  {
    name: 'the chain runs but the token cannot be deployed (no funded accounts)',
    options: () => ({ buyerCount: -2, seed: SMALL_SEED }),
    message: /starting the local chain failed: [\s\S]*exceeds the balance of the account/,
  },
  {
    name: 'the chain and store are up but the HTTP port is taken',
    options: () => ({ port: busyPort, seed: SMALL_SEED }),
    message: /starting the service in [\s\S]* failed: [\s\S]*EADDRINUSE/,
  },
];

describe('a stack that fails to start', () => {
  it.each(failures)('$name: rejects clearly, no temp dir and no anvil left', async ({ options, message }) => {
    expect(anvilChildren()).toEqual([]);
    expect(readdirSync(privateTmp)).toEqual([]);

    const failed = await startStack(options()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(readdirSync(privateTmp)).toEqual([]);
    expect(anvilChildren()).toEqual([]);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/^the service stack did not start: /);
    expect((failed as Error).message).toMatch(message);
    expect((failed as Error).cause).toBeInstanceOf(Error);
  });
});
