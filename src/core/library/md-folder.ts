/**
 * A handle or the whole library as a folder of Markdown files, the form Obsidian and similar tools open as a
 * vault: one folder per handle, one file per report with YAML front matter (front-matter.ts) before the
 * report's Markdown (the same text as `export --format md`), and an index.md per handle linking its reports,
 * newest first. Names are made safe (report-record.ts); every path stays inside the folder chosen.
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DeskError } from '../base/errors';
import { frontMatter, yamlString } from './front-matter';
import { reportFileName, safeFileName, type ReportRecord } from './report-record';

export interface FolderReport {
  record: ReportRecord;
  spentUnits: string;
  markdown: string;
}

export interface FolderFile {
  /** Relative to the export folder, with "/" between parts. */
  path: string;
  content: string;
}

/** Index text is Markdown read by a person: the link label must not open a link or a heading of its own. */
const label = (text: string) => text.replace(/[\\[\]<>*_`#|]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');

export function markdownFolder(reports: readonly FolderReport[], exportedAt: string): FolderFile[] {
  const byHandle = new Map<string, FolderReport[]>();
  for (const report of reports) {
    const folder = safeFileName(report.record.handle);
    byHandle.set(folder, [...(byHandle.get(folder) ?? []), report]);
  }
  const files: FolderFile[] = [];
  for (const [folder, owned] of byHandle) {
    const newestFirst = [...owned].sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt));
    const taken = new Set<string>();
    const links: string[] = [];
    for (const report of newestFirst) {
      // Two services may hold a report of the same id and day: the second file gets a suffix, never overwrites.
      let name = reportFileName(report.record);
      for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${reportFileName(report.record)}-${n}`;
      taken.add(name.toLowerCase());
      files.push({
        path: `${folder}/${name}.md`,
        content: `${frontMatter(report.record, report.spentUnits, exportedAt)}\n${report.markdown}`,
      });
      const { createdAt, model, reportId } = report.record;
      links.push(`- [${label(`${createdAt.slice(0, 10)} · ${model} · ${reportId}`)}](${encodeURI(name)}.md)`);
    }
    const first = newestFirst[0]!.record;
    const index = [
      '---',
      `handle: ${yamlString(first.handle)}`,
      `username: ${yamlString(first.username)}`,
      `reports: ${newestFirst.length}`,
      `exported: ${yamlString(exportedAt)}`,
      '---',
      '',
      `# @${label(first.username)}`,
      '',
      ...links,
      '',
    ].join('\n');
    files.push({ path: `${folder}/index.md`, content: index });
  }
  return files;
}

/**
 * Writes the files into `dir` (made if missing): each through a temporary name and a rename, so a reader
 * never opens half a file and an earlier export of the same report is replaced whole. Nothing else in the
 * folder is touched.
 */
export function writeFolder(dir: string, files: readonly FolderFile[]): void {
  const root = path.resolve(dir);
  try {
    mkdirSync(root, { recursive: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DeskError(
      'export_folder_unusable',
      `Cannot make the folder ${root} (${reason}); nothing was exported. Choose a folder you can write to.`,
      'usage',
    );
  }
  if (!statSync(root).isDirectory()) {
    throw new DeskError(
      'export_folder_unusable',
      `${root} is a file, not a folder; nothing was exported. Choose a folder.`,
      'usage',
    );
  }
  for (const file of files) {
    const target = path.resolve(root, file.path);
    if (path.relative(root, target).startsWith('..'))
      throw new Error(`export path outside its folder: ${file.path}`);
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, file.content, 'utf8');
    renameSync(temporary, target);
  }
}
