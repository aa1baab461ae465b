/**
 * A snapshot whose every field is hostile (markup, javascript: and data: links, remote images, terminal
 * control sequences) stored in a real library, then exported by the real Markdown export and printed by the
 * real CLI: nothing active may come out, and PDF bytes are never written to a terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createDeskCore, type DeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { hostileStrings, hostileUrls, REMOTE } from '../../e2e/hostile-strings';
import { tempDir } from '../core/helpers';
import { closedPortUrl } from '../closed-port';
import { root, runCli, type Run } from './run-cli';

/** A loopback origin the hostile URLs point at; nothing here fetches it. */
const CANARY = 'http://127.0.0.1:1';
const OSC52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';
const CLEAR = '\u001b[2J\u001b[3J\u001b[H';
const C1 = '\u009b2J\u009d52;c;cm0K\u009c';
const TERMINAL = `${OSC52}${CLEAR}${C1}\u0007\u0008\r`;
const ID = 'rpt_hostile_001';
const HANDLE = 'evil<img src=x onerror=alert(1)>';

function hostileSnapshot(): IntelReportSnapshot {
  const corpus = hostileStrings(CANARY).map((h) => h.text);
  const urls = hostileUrls(CANARY);
  return {
    id: ID,
    createdAt: `2026-11-20<img src=${REMOTE}/d.png>${TERMINAL}`,
    model: `gpt <script>alert(1)</script> ${OSC52}`,
    synthesisSettings: {},
    meta: {
      postCount: 42,
      dateRange: { from: `<b onmouseover=alert(1)>2026-11-01`, to: `javascript:alert(1)${CLEAR}` },
    },
    narrative: {
      summary: [
        `Screen ${CLEAR} clipboard ${OSC52} and ${C1} in prose.`,
        `[the docs](https://docs.example.org/a_(b)) stay a link.`,
        `[click](javascript:alert('k01')) [x](JaVaScRiPt:alert(1)) [d](data:text/html,hello)`,
        `![tracker](${REMOTE}/beacon.png) ![local](${CANARY}/k02.png) ![](//evil.example/x.png)`,
        ...corpus,
      ].join('\n'),
      [`<img src=x onerror=alert('key')>${OSC52}`]: `section named by the service`,
      keyThemes: Object.fromEntries(urls.map((url, i) => [`${url}${TERMINAL}`, `![i${i}](${url})`])),
    },
    changeSummary: { [`javascript:alert(2)<svg onload=alert(3)>`]: [`[a](vbscript:msgbox(1))`, CLEAR] },
    analytics: {
      [`topics<iframe src="javascript:alert(4)">`]: [`<img src=${REMOTE}/a.png>`, `${TERMINAL}x`],
    },
    previousReportId: null,
  };
}

let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
/** Nothing here needs the service: an address where nothing listens. */
let unreachable: string;

beforeAll(async () => {
  data = tempDir('desk-hostile-output-');
  unreachable = await closedPortUrl();
  // Stored straight into the library's database, as a purchase would have stored it.
  const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
  const snapshot = hostileSnapshot();
  new SnapshotStore(db).put(
    unreachable,
    HANDLE,
    [{ snapshot, raw: JSON.stringify(snapshot) }],
    null,
    snapshot.createdAt,
  );
  db.close();
  desk = await createDeskCore({ dataDir: data.dir, serviceUrl: unreachable });
});
afterAll(async () => {
  await desk?.close();
  data?.remove();
});

/** No byte a terminal acts on: C0 other than \n and \t, DEL, and C1 (one-character CSI and OSC). */
function expectNoControls(text: string): void {
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  expect(text.match(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g) ?? []).toEqual([]);
}

function expectInert(markdown: string): void {
  expectNoControls(markdown);
  // The CLI shows invisible characters as <U+XXXX>: text, not markup.
  expect(markdown.replace(/<U\+[0-9A-F]{4,6}>/g, '')).not.toContain('<');
  expect(markdown).not.toMatch(/javascript:|vbscript:|data:text/i);
  // No image syntax at all, so nothing is fetched when the file is opened.
  expect(markdown).not.toMatch(/!\[[^\]]*\]\(/);
  expect(markdown).not.toContain(`](${CANARY}`);
  expect(markdown).not.toContain(`](${REMOTE}`);
}

const cli = (args: string[]): Promise<Run> =>
  runCli(args, { INTEL_DESK_DATA_DIR: data.dir, INTEL_DESK_SERVICE_URL: unreachable });

describe('a hostile snapshot', () => {
  it('exports as Markdown with every field escaped, only http(s) links, and no images', async () => {
    const { content } = await desk.handlers['report.export']({ id: ID, format: 'md' });
    if (process.env['SHOW_MD']) console.log(content);
    expectInert(content);
    expect(content).toContain('# @evil&lt;img src=x onerror=alert(1)&gt;: report of 2026-11-20');
    expect(content).toContain('[the docs](https://docs.example.org/a_%28b%29) stay a link.');
    expect(content).toContain('click x d');
    expect(content).toContain('(image not included: tracker)');
    expect(content).toContain("## &lt;img src=x onerror=alert('key')&gt;");
    expect(content).toContain(
      '- Period: &lt;b onmouseover=alert(1)&gt;2026-11-01 to javascript&#58;alert(1)',
    );
  });

  it('prints nothing active through read, export md/json, library and search', async () => {
    const read = await cli(['read', ID]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('## Summary');
    expectInert(read.stdout);

    const md = await cli(['export', ID, '--format', 'md']);
    expect(md.code).toBe(0);
    expectInert(md.stdout);

    const json = await cli(['export', ID, '--format', 'json']);
    expect(json.code).toBe(0);
    expectNoControls(json.stdout);
    // The same value as the service sent: only the spelling of the control characters changed.
    expect(JSON.parse(json.stdout)).toEqual(hostileSnapshot());

    for (const args of [
      ['library'],
      ['library', '--json'],
      ['search', 'clipboard'],
      ['read', ID, '--json'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(0);
      expectNoControls(run.stdout);
      expectNoControls(run.stderr);
    }
  }, 120_000);

  it('refuses to write PDF bytes to a terminal and says to redirect, but writes them to a pipe', async () => {
    const tty = await inTerminal(['export', ID, '--format', 'pdf']);
    expect(tty.code).toBe(2);
    expect(tty.output).toContain(`redirect to a file: intel-desk export ${ID} --format pdf > report.pdf`);
    expect(tty.output).not.toContain('%PDF');

    const piped = await cli(['export', ID, '--format', 'pdf']);
    expect(piped.code).toBe(0);
    expect(piped.stdout.startsWith('%PDF-')).toBe(true);
  });
});

/** Runs the real CLI with its stdout on a pseudo-terminal (util-linux `script`), as a person at a shell would. */
function inTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, path.join(root, 'bin/intel-desk.mjs'), ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: root,
      env: { ...process.env, INTEL_DESK_DATA_DIR: data.dir, INTEL_DESK_SERVICE_URL: unreachable },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
    child.on('close', (code) => resolve({ code, output }));
  });
}
