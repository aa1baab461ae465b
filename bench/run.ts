/**
 * `npm run bench`: every benchmark section in one run, printed as figures and ratios and written to
 * bench/results/latest.json. Add a section by appending it to SECTIONS.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backupSection } from './backup';
import { cacheSection } from './cache';
import { cliSection } from './cli';
import { coreThreadSection } from './core-thread';
import { requestsSection } from './requests';
import { rendererSection } from './renderer';
import { libraryScreenSection } from './library-screen';
import { upgradeSection } from './upgrade';
import { serviceSection } from './service';
import { teamSection } from './team';
import type { Section } from './measure';

const SECTIONS: Section[] = [
  cacheSection,
  backupSection,
  upgradeSection,
  cliSection,
  coreThreadSection,
  requestsSection,
  serviceSection,
  rendererSection,
  libraryScreenSection,
  teamSection,
];

const only = process.argv.slice(2);
const results: Record<string, Record<string, number | string>> = {};
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`;
console.log(`Intel Desk benchmarks, ${new Date().toISOString()}\n${machine}\n`);
for (const section of SECTIONS) {
  if (only.length > 0 && !only.some((name) => section.name.toLowerCase().includes(name.toLowerCase())))
    continue;
  const started = Date.now();
  process.stdout.write(`${section.name} … `);
  let figures: Record<string, number | string>;
  try {
    figures = await section.run();
  } catch (error) {
    // One failing section should not hide the figures of the others; the run still exits non-zero.
    process.exitCode = 1;
    figures = { error: error instanceof Error ? error.message : String(error) };
  }
  results[section.name] = figures;
  console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  const width = Math.max(...Object.keys(figures).map((key) => key.length));
  for (const [key, value] of Object.entries(figures)) console.log(`  ${key.padEnd(width)}  ${value}`);
  console.log('');
}
const dir = path.resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  path.join(dir, 'latest.json'),
  `${JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2)}\n`,
);
console.log(`written to ${path.relative(process.cwd(), path.join(dir, 'latest.json'))}`);
