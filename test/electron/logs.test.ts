/** The shell's rotating log file on a real temp folder. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openRotatingLog } from '../../electron/logs';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'desk-logs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quiet = () => undefined;
const at = () => new Date('2026-01-02T03:04:05.000Z');

describe('the rotating log', () => {
  it('appends timestamped lines, with the stack of an error', () => {
    const log = openRotatingLog({ dir: path.join(dir, 'logs'), echo: quiet, now: at });
    log.info('started');
    log.error('it broke', new TypeError('bad thing'));
    const text = readFileSync(log.file, 'utf8');
    expect(text.startsWith('2026-01-02T03:04:05.000Z info started\n')).toBe(true);
    expect(text).toContain('error it broke: TypeError: bad thing\n    at ');
  });

  it('rotates by size and keeps only the newest files', () => {
    const log = openRotatingLog({ dir, maxBytes: 200, keep: 2, echo: quiet, now: at });
    for (let i = 0; i < 40; i++) log.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(20)}`);
    expect(readdirSync(dir).sort()).toEqual(['main.log', 'main.log.1', 'main.log.2']);
    for (const name of readdirSync(dir)) expect(statSync(path.join(dir, name)).size).toBeLessThanOrEqual(200);
    // Newest last in main.log, the ones just before in main.log.1: nothing in between was lost.
    const current = readFileSync(path.join(dir, 'main.log'), 'utf8');
    const previous = readFileSync(path.join(dir, 'main.log.1'), 'utf8');
    expect(current.trimEnd().endsWith('line 39 xxxxxxxxxxxxxxxxxxxx')).toBe(true);
    const numbers = (text: string) => [...text.matchAll(/line (\d+)/g)].map((m) => Number(m[1]));
    const joined = [...numbers(previous), ...numbers(current)];
    expect(joined).toEqual(joined.map((_, i) => (joined[0] ?? 0) + i));
  });

  it('counts what an earlier run left in the file', () => {
    writeFileSync(path.join(dir, 'main.log'), 'y'.repeat(190));
    const log = openRotatingLog({ dir, maxBytes: 200, keep: 1, echo: quiet, now: at });
    log.info('next run');
    expect(readFileSync(path.join(dir, 'main.log.1'), 'utf8')).toBe('y'.repeat(190));
    expect(readFileSync(path.join(dir, 'main.log'), 'utf8')).toContain('next run');
  });

  it('a log folder that cannot be created costs the file, not the app', () => {
    writeFileSync(path.join(dir, 'blocked'), '');
    const echoed: string[] = [];
    const log = openRotatingLog({
      dir: path.join(dir, 'blocked', 'logs'),
      echo: (l) => echoed.push(l),
      now: at,
    });
    expect(() => log.error('still said')).not.toThrow();
    expect(echoed.join('')).toContain('cannot be used');
    expect(echoed.join('')).toContain('error still said');
  });
});
