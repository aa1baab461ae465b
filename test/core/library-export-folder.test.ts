/**
 * A researcher's exports (decision 0049), through core's handlers on real libraries: a handle bought over
 * real HTTP and a real chain, exported as a Markdown folder, reads back through a real YAML parser (js-yaml)
 * to exactly the library's rows and the ledger's purchase; hostile service text (quotes, colons, newlines,
 * braces, "---", a path in an id) stays inside its field and its folder; citations are well formed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createDeskCore, type DeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { usdcText } from '../../src/shared/money';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { startStack, type Stack } from '../../src/service/stack';
import { buyAll, deskWithWallet, failure, firstHandle, ledgerRows, tempDir } from './helpers';

const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

/** The front matter of a Markdown file, strictly: it opens the file and ends at the first "---" line. */
function frontMatterOf(text: string): Record<string, unknown> {
  expect(text.startsWith('---\n')).toBe(true);
  const end = text.indexOf('\n---\n', 4);
  expect(end).toBeGreaterThan(0);
  const block = text.slice(4, end);
  // Every line is one `key: value`: no value spilled onto a line of its own.
  for (const line of block.split('\n')) expect(line).toMatch(/^[a-z_]+: \S/);
  return yaml.load(block) as Record<string, unknown>;
}

/** Every file under `dir`, relative, with "/". */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

describe('a handle bought over the wire, exported as a Markdown folder', () => {
  let stack: Stack;
  let desk: DeskCore;
  let handle: string;
  const data = tempDir('desk-export-folder-');

  beforeAll(async () => {
    stack = await startStack({ seed: { handles: 2, minReportsPerHandle: 3, maxReportsPerHandle: 3 } });
    ({ desk } = await deskWithWallet(stack, data.dir));
    ({ handle } = await firstHandle(stack));
    await buyAll(desk, handle);
  });

  afterAll(async () => {
    await desk?.close();
    await stack?.stop();
    data.remove();
  });

  it('writes one file per report whose front matter reads back as the library’s rows', async () => {
    const out = path.join(data.dir, 'vault');
    const view = await desk.handlers['library.exportFolder']({ dir: out, handle });
    const items = (await desk.handlers['library.list']({ handle })).items;
    expect(view).toEqual({ dir: out, reports: 3, handles: 1 });
    const [purchase] = ledgerRows(data.dir);
    expect(purchase?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const folder = handle.toLowerCase();
    expect(filesUnder(out).sort()).toEqual(
      [
        ...items.map((item) => `${folder}/${item.createdAt.slice(0, 10)}-${item.id}.md`),
        `${folder}/index.md`,
      ].sort(),
    );
    for (const item of items) {
      const text = readFileSync(
        path.join(out, folder, `${item.createdAt.slice(0, 10)}-${item.id}.md`),
        'utf8',
      );
      const fields = frontMatterOf(text);
      expect(fields).toMatchObject({
        handle: item.handle,
        username: item.username,
        report_id: item.id,
        created: item.createdAt,
        period_from: item.dateRange?.from ?? null,
        period_to: item.dateRange?.to ?? null,
        model: item.model,
        post_count: item.postCount,
        service: item.serviceUrl,
        purchase_id: purchase!.id,
        purchased: purchase!.created_at,
        paid_with: 'payment',
        transaction: purchase!.tx_hash,
        spent_usdc: usdcText(item.spentUnits),
        tags: item.tags,
      });
      // The report's Markdown follows, as `export --format md` writes it.
      const md = (await desk.handlers['report.export']({ id: item.id, format: 'md' })).content;
      expect(text.endsWith(md)).toBe(true);
    }
    const index = readFileSync(path.join(out, folder, 'index.md'), 'utf8');
    expect(frontMatterOf(index)).toMatchObject({ handle: folder, reports: 3 });
    for (const item of items) expect(index).toContain(`(${item.createdAt.slice(0, 10)}-${item.id}.md)`);
  });

  it('cites a report as CSL-JSON and BibTeX', async () => {
    const [item] = (await desk.handlers['library.list']({ handle })).items;
    const csl = await desk.handlers['report.export']({ id: item!.id, format: 'csl-json' });
    expect(csl.filename.endsWith('.csl.json')).toBe(true);
    const [entry, ...more] = JSON.parse(csl.content) as Record<string, unknown>[];
    expect(more).toEqual([]);
    const [year, month, day] = item!.createdAt.slice(0, 10).split('-').map(Number);
    expect(entry).toMatchObject({
      type: 'report',
      number: item!.id,
      issued: { 'date-parts': [[year, month, day]] },
      author: [{ literal: new URL(item!.serviceUrl).host }],
    });
    expect(String(entry!['title'])).toContain(`@${item!.username}`);
    expect(String(entry!['note'])).toContain(ledgerRows(data.dir)[0]!.tx_hash);
    const bib = (await desk.handlers['report.export']({ id: item!.id, format: 'bibtex' })).content;
    expectWellFormedBibtex(bib);
    expect(bib).toMatch(/^@misc\{intel-desk-[A-Za-z0-9_-]+,\n/);
    expect(bib).toContain(`  year = {${year}}`);
  });

  it('refuses a handle with nothing to export, writing nothing', async () => {
    const out = path.join(data.dir, 'empty');
    const error = await failure(desk.handlers['library.exportFolder']({ dir: out, handle: 'nobody_here' }));
    expect(error.code).toBe('nothing_to_export');
    expect(error.message).toBe(
      'The library holds no reports of @nobody_here, so there is nothing to export; nothing was written. Choose a handle the library lists.',
    );
    expect(() => readdirSync(out)).toThrow();
  });

  it('refuses a file where the folder should be', async () => {
    const file = path.join(data.dir, 'a-file');
    writeFileSync(file, 'x');
    const error = await failure(desk.handlers['library.exportFolder']({ dir: file }));
    expect(error.code).toBe('export_folder_unusable');
  });
});

/** Braces balance in every entry and every field is `name = {…}` or a month macro. */
function expectWellFormedBibtex(bib: string): void {
  let depth = 0;
  for (let i = 0; i < bib.length; i += 1) {
    if (bib[i] === '\\') {
      i += 1;
      continue;
    }
    if (bib[i] === '{') depth += 1;
    if (bib[i] === '}') depth -= 1;
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
  const lines = bib.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^@misc\{[A-Za-z0-9_:-]+,$/);
  expect(lines.at(-1)).toBe('}');
  for (const line of lines.slice(1, -1)) expect(line).toMatch(/^ {2}[a-z]+ = (\{.*\}|[a-z]{3}),?$/);
}

const HOSTILE =
  'a: "b" \'c\' #d {e} }f \\g %h &i $j _k ^l ~m\n---\nevil: true\r\n\u0085\u2028[x](javascript:alert(1))';

function hostileReport(id: string): IntelReportSnapshot {
  return {
    id,
    createdAt: '2026-11-01T00:00:00.000Z',
    model: HOSTILE,
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: { from: HOSTILE, to: '2026-11-01' } },
    analytics: {},
    narrative: { summary: HOSTILE },
    changeSummary: null,
    previousReportId: null,
  };
}

describe('hostile service text in an export', () => {
  it('stays inside its field, its file and its folder', async () => {
    const data = tempDir('desk-export-hostile-');
    try {
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      const store = new SnapshotStore(db);
      const ids = ['../../escape:"x"', '.hidden', 'CON'];
      db.transaction(() =>
        store.put(
          'http://127.0.0.1:8402',
          'Ev"il',
          ids.map((id) => ({ snapshot: hostileReport(id), raw: JSON.stringify(hostileReport(id)) })),
          null,
          '2026-11-02T00:00:00.000Z',
        ),
      )();
      db.close();
      const desk = await createDeskCore({ dataDir: data.dir });
      try {
        const out = path.join(data.dir, 'vault');
        expect(await desk.handlers['library.exportFolder']({ dir: out })).toMatchObject({
          reports: 3,
          handles: 1,
        });
        const files = filesUnder(out).sort();
        expect(files).toEqual([
          'ev_il/2026-11-01-.._.._escape_x_.md',
          'ev_il/2026-11-01-.hidden.md',
          'ev_il/2026-11-01-CON.md',
          'ev_il/index.md',
        ]);
        for (const [file, id] of [
          ['ev_il/2026-11-01-.._.._escape_x_.md', ids[0]],
          ['ev_il/2026-11-01-.hidden.md', ids[1]],
        ] as const) {
          const fields = frontMatterOf(readFileSync(path.join(out, file), 'utf8'));
          expect(fields['model']).toBe(HOSTILE);
          expect(fields['period_from']).toBe(HOSTILE);
          expect(fields['report_id']).toBe(id);
          expect(fields['username']).toBe('Ev"il');
          expect(fields['purchase_id']).toBeNull();
          expect(Object.keys(fields)).not.toContain('evil');
        }
        const bib = (await desk.handlers['report.export']({ id: ids[0]!, format: 'bibtex' })).content;
        expectWellFormedBibtex(bib);
        expect(bib).not.toContain('\n---');
        const csl = JSON.parse(
          (await desk.handlers['report.export']({ id: ids[0]!, format: 'csl-json' })).content,
        );
        expect(csl[0].note).toContain('model a: "b"');
        expect(csl[0].note).not.toMatch(/[\n\r\u0085\u2028]/);
      } finally {
        await desk.close();
      }
    } finally {
      data.remove();
    }
  });
});
