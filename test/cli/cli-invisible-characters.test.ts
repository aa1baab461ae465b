/**
 * Invisible characters in service text (bidi overrides and isolates, zero-width characters and other format
 * characters) reach the terminal as visible escapes such as <U+202E> through read, list, menu and search, and
 * as \u escapes in --json output, so a report cannot reorder or hide what the CLI prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { tempDir } from '../core/helpers';
import { runCli } from './run-cli';

/** Every character the filter must show: the 9 bidi controls, the zero-width ones, and other format characters. */
const INVISIBLE = [
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e],
  ...[0x2066, 0x2067, 0x2068, 0x2069],
  ...[0x200b, 0x200c, 0x200d, 0x200e, 0x200f],
  ...[0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x206a, 0x206f],
  ...[0xfeff, 0x061c, 0x180e, 0x00ad, 0x2028, 0x2029, 0x3164, 0xe0041, 0xe007f],
];
const escapeOf = (cp: number) => `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
/** "evil" with each invisible character after its first letter: a word the index still finds as "e" + "vil". */
const laced = INVISIBLE.map((cp) => `x${String.fromCodePoint(cp)}y`).join(' ');

const ID = 'rpt_invisible_001';
const HANDLE = 'mallory';

function snapshot(): IntelReportSnapshot {
  return {
    id: ID,
    createdAt: '2026-11-20T10:00:00.000Z',
    model: `model ${laced}`,
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: null },
    analytics: {},
    narrative: { summary: `invoice total ${laced} approved` },
    changeSummary: null,
    previousReportId: null,
  };
}

let server: Server;
let url: string;
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  server = createServer((request, response) => {
    const at = new URL(request.url ?? '/', 'http://localhost');
    const body =
      at.pathname === '/api/intel/list'
        ? {
            configured: true,
            entries: [{ username: HANDLE, displayName: `Mallory ${laced}`, reportCount: 1 }],
          }
        : at.pathname === '/api/intel/reports'
          ? {
              username: HANDLE,
              reportCount: 1,
              reports: [
                {
                  id: ID,
                  createdAt: '2026-11-20T10:00:00.000Z',
                  model: `model ${laced}`,
                  postCount: 3,
                  dateRange: null,
                },
              ],
            }
          : null;
    response.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body ?? { error: 'not_found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  data = tempDir('desk-invisible-');
  const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
  const report = snapshot();
  new SnapshotStore(db).put(
    url,
    HANDLE,
    [{ snapshot: report, raw: JSON.stringify(report) }],
    null,
    report.createdAt,
  );
  db.close();
});
afterAll(async () => {
  data?.remove();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const cli = (args: string[]) =>
  runCli(args, {
    INTEL_DESK_DATA_DIR: data.dir,
    INTEL_DESK_SERVICE_URL: url,
    INTEL_DESK_LIBRARY_SECRET: undefined,
  });

/** `shown`: the characters the output holds at all (a search snippet is about 180 characters of the report). */
function expectAllShown(output: string, what: string, shown = INVISIBLE): void {
  for (const cp of INVISIBLE) {
    const raw = String.fromCodePoint(cp);
    expect(output.includes(raw), `${what}: U+${cp.toString(16)} printed raw`).toBe(false);
  }
  for (const cp of shown) expect(output, what).toContain(`x${escapeOf(cp)}y`);
}

describe('invisible characters in what the CLI prints', () => {
  it('shows every one as <U+XXXX> in read, list, menu, search and library', async () => {
    for (const args of [['read', ID], ['list'], ['menu', HANDLE], ['library']]) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expectAllShown(run.stdout, args.join(' '));
    }
    const search = await cli(['search', 'invoice']);
    expect(search.code).toBe(0);
    // The snippet holds the first 9 + 5 + 2 of them (it makes any white space, U+FEFF too, one space).
    expectAllShown(search.stdout, 'search', INVISIBLE.slice(0, 16));
  }, 60_000);

  it('points the caret of a syntax error at its column past an escape', async () => {
    const run = await cli(['search', 'a\u202eb )']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`\n  a<U+202E>b )\n  ${' '.repeat(11)}^\n`);
  }, 30_000);

  it('keeps the table columns aligned when a cell holds escapes', async () => {
    const run = await cli(['menu', HANDLE]);
    const [header = '', , row = ''] = run.stdout.split('\n');
    expect(row.indexOf('3 ')).toBe(header.indexOf('posts'));
  }, 30_000);

  it('writes them as \\u escapes in --json, with the value unchanged', async () => {
    for (const args of [
      ['read', ID, '--json'],
      ['list', '--json'],
      ['menu', HANDLE, '--json'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(0);
      for (const cp of INVISIBLE)
        expect(run.stdout.includes(String.fromCodePoint(cp)), `${args.join(' ')}: U+${cp.toString(16)}`).toBe(
          false,
        );
      expect(run.stdout).toContain('\\u202e');
      expect(run.stdout).toContain('\\udb40\\udc41');
      expect(JSON.stringify(JSON.parse(run.stdout))).toContain(laced);
    }
  }, 60_000);
});
