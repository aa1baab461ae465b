/**
 * `intel-desk export` for a researcher (decision 0049), as a real child process on a real library: a handle
 * and the whole library as Markdown folders, a report's citation as CSL-JSON and BibTeX, and flags that do
 * not go together refused with exit 2 and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { tempDir } from '../core/helpers';
import { runCli, type Run } from './run-cli';

const SERVICE = 'http://127.0.0.1:8402';
let data: ReturnType<typeof tempDir>;

const report = (id: string, createdAt: string): IntelReportSnapshot => ({
  id,
  createdAt,
  model: 'model-x',
  synthesisSettings: {},
  meta: { postCount: 12, dateRange: { from: '2026-10-01', to: '2026-10-31' } },
  analytics: {},
  narrative: { summary: `Summary of ${id}.` },
  changeSummary: null,
  previousReportId: null,
});

function cli(args: string[]): Promise<Run> {
  return runCli(args, {
    INTEL_DESK_DATA_DIR: data.dir,
    INTEL_DESK_SERVICE_URL: SERVICE,
    INTEL_DESK_PASSPHRASE: undefined,
    INTEL_DESK_PRIVATE_KEY: undefined,
  });
}

beforeAll(() => {
  data = tempDir('desk-cli-export-');
  const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
  const store = new SnapshotStore(db);
  const put = (handle: string, reports: IntelReportSnapshot[]) =>
    store.put(
      SERVICE,
      handle,
      reports.map((snapshot) => ({ snapshot, raw: JSON.stringify(snapshot) })),
      null,
      '2026-11-02T00:00:00.000Z',
    );
  db.transaction(() => {
    put('Alice', [
      report('rpt_a1', '2026-11-01T00:00:00.000Z'),
      report('rpt_a2', '2026-11-08T00:00:00.000Z'),
    ]);
    put('bob', [report('rpt_b1', '2026-11-03T00:00:00.000Z')]);
  })();
  db.close();
});

afterAll(() => data?.remove());

describe('intel-desk export as a folder', () => {
  it('writes a handle’s reports with an index, and says where', async () => {
    const out = path.join(data.dir, 'alice-vault');
    const run = await cli(['export', '--handle', 'alice', '--format', 'md-folder', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`wrote 2 reports of 1 handle to ${out}`);
    expect(readdirSync(path.join(out, 'alice')).sort()).toEqual([
      '2026-11-01-rpt_a1.md',
      '2026-11-08-rpt_a2.md',
      'index.md',
    ]);
    const file = readFileSync(path.join(out, 'alice', '2026-11-08-rpt_a2.md'), 'utf8');
    expect(file).toMatch(/^---\ntitle: "@Alice: report of 2026-11-08"\nhandle: "alice"\n/);
    expect(file).toContain('\nreport_id: "rpt_a2"\n');
    expect(file).toContain('Summary of rpt_a2.');
    const index = readFileSync(path.join(out, 'alice', 'index.md'), 'utf8');
    // Newest first.
    expect(index.indexOf('(2026-11-08-rpt_a2.md)')).toBeLessThan(index.indexOf('(2026-11-01-rpt_a1.md)'));
  });

  it('writes the whole library with --all, one folder per handle (--json for scripts)', async () => {
    const out = path.join(data.dir, 'library-vault');
    const run = await cli(['export', '--all', '--format', 'md-folder', '--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ dir: out, reports: 3, handles: 2 });
    expect(readdirSync(out).sort()).toEqual(['alice', 'bob']);
  });

  it('refuses flags that do not go together with exit 2, writing nothing', async () => {
    const out = path.join(data.dir, 'refused');
    for (const args of [
      ['export', '--all', '--handle', 'alice', '--format', 'md-folder', '--out', out],
      ['export', '--all', '--format', 'md-folder'],
      ['export', '--all', '--format', 'md', '--out', out],
      ['export', 'rpt_a1', '--handle', 'alice'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/md-folder/);
    }
    expect(existsSync(out)).toBe(false);
  });
});

describe('intel-desk export as a citation', () => {
  it('prints CSL-JSON and BibTeX for a report', async () => {
    const csl = await cli(['export', 'rpt_b1', '--format', 'csl-json']);
    expect(csl.code, csl.stderr).toBe(0);
    expect(JSON.parse(csl.stdout)).toMatchObject([
      {
        type: 'report',
        number: 'rpt_b1',
        issued: { 'date-parts': [[2026, 11, 3]] },
        publisher: '127.0.0.1:8402',
      },
    ]);
    const bib = await cli(['export', 'rpt_b1', '--format', 'bibtex']);
    expect(bib.code, bib.stderr).toBe(0);
    expect(bib.stdout).toMatch(
      /^@misc\{intel-desk-bob-2026-11-03-rpt_b1,\n {2}author = \{\{127\.0\.0\.1:8402\}\},\n/,
    );
    expect(bib.stdout).toContain('  month = nov,\n');
  });
});
