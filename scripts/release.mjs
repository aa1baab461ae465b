#!/usr/bin/env node
// `npm run release -- patch|minor|major [--date YYYY-MM-DD]`: the next version in package.json and
// package-lock.json, and CHANGELOG.md's Unreleased entries moved under its heading, dated. It commits and tags
// nothing: it prints the commands that do, to run once the diff reads right. Plain JavaScript, so a release
// needs nothing installed. Works on the current directory (npm runs scripts from the package root).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
const VERSION_HEADING = /^## (\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})$/;

export class ReleaseError extends Error {}

/** The version after `version` for a patch, minor or major release. */
export function nextVersion(version, part) {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new ReleaseError(`package.json's version "${version}" is not MAJOR.MINOR.PATCH`);
  const [major, minor, patch] = match.slice(1).map(Number);
  if (part === 'major') return `${major + 1}.0.0`;
  if (part === 'minor') return `${major}.${minor + 1}.0`;
  if (part === 'patch') return `${major}.${minor}.${patch + 1}`;
  throw new ReleaseError(`say which release: patch, minor or major (not "${part ?? ''}")`);
}

/**
 * The changelog's shape: `## Unreleased` first, then `## X.Y.Z - YYYY-MM-DD` headings, newest first; under
 * each only Keep a Changelog's `### ` sections, in their order, each holding one-line `- ` entries.
 * @returns {string[]} what is wrong, line by line; empty when nothing is
 */
export function changelogProblems(text) {
  const problems = [];
  const lines = text.split('\n');
  let version = null;
  let section = null;
  let sectionIndex = -1;
  let previous = null;
  let sawUnreleased = false;
  lines.forEach((line, index) => {
    const at = `line ${index + 1}`;
    if (line.startsWith('## ')) {
      const heading = VERSION_HEADING.exec(line);
      if (line === '## Unreleased') {
        if (sawUnreleased || version !== null) problems.push(`${at}: "## Unreleased" comes once, first`);
        sawUnreleased = true;
      } else if (!heading) {
        problems.push(`${at}: a version heading is "## X.Y.Z - YYYY-MM-DD", not "${line}"`);
      } else {
        if (!sawUnreleased) problems.push(`${at}: "## Unreleased" comes before the first version`);
        if (previous && compareVersions(heading[1], previous) >= 0)
          problems.push(`${at}: ${heading[1]} is not older than ${previous} above it`);
        previous = heading[1];
      }
      version = line;
      section = null;
      sectionIndex = -1;
    } else if (line.startsWith('### ')) {
      const name = line.slice(4);
      const index = SECTIONS.indexOf(name);
      if (version === null) problems.push(`${at}: "${line}" is under no version`);
      if (index < 0) problems.push(`${at}: "${name}" is not one of ${SECTIONS.join(', ')}`);
      else if (index <= sectionIndex) problems.push(`${at}: "${name}" is out of order or repeated`);
      section = name;
      sectionIndex = Math.max(sectionIndex, index);
    } else if (line.startsWith('- ')) {
      if (section === null) problems.push(`${at}: an entry outside an Added/Changed/… section`);
    } else if (line.startsWith(' ') || line.startsWith('\t')) {
      problems.push(`${at}: an entry goes on one line`);
    } else if (line.trim() !== '' && version !== null) {
      problems.push(`${at}: only "### " sections and "- " entries go under a version`);
    }
  });
  if (!sawUnreleased) problems.push('there is no "## Unreleased" heading');
  return problems;
}

function compareVersions(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** The changelog with Unreleased's entries under `## version - date`, and an empty Unreleased above. */
export function releaseChangelog(text, version, date) {
  const problems = changelogProblems(text);
  if (problems.length > 0)
    throw new ReleaseError(`CHANGELOG.md is not in shape:\n  ${problems.join('\n  ')}`);
  const lines = text.split('\n');
  const start = lines.indexOf('## Unreleased');
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const end = next < 0 ? lines.length : next;
  const entries = lines.slice(start + 1, end);
  if (!entries.some((line) => line.startsWith('- ')))
    throw new ReleaseError('Unreleased has no entries: nothing to release');
  while (entries.length > 0 && entries[entries.length - 1].trim() === '') entries.pop();
  return [
    ...lines.slice(0, start + 1),
    '',
    `## ${version} - ${date}`,
    ...entries,
    '',
    ...lines.slice(end),
  ].join('\n');
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function release(root, part, date) {
  const manifestFile = path.join(root, 'package.json');
  const lockFile = path.join(root, 'package-lock.json');
  const changelogFile = path.join(root, 'CHANGELOG.md');
  const manifest = readJson(manifestFile);
  const version = nextVersion(manifest.version, part);
  const changelog = releaseChangelog(readFileSync(changelogFile, 'utf8'), version, date);
  const lock = readJson(lockFile);
  manifest.version = version;
  lock.version = version;
  if (lock.packages?.['']) lock.packages[''].version = version;
  writeJson(manifestFile, manifest);
  writeJson(lockFile, lock);
  writeFileSync(changelogFile, changelog);
  return version;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const { values, positionals } = parseArgs({
      options: { date: { type: 'string' } },
      allowPositionals: true,
    });
    const date = values.date ?? new Date().toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new ReleaseError(`--date is YYYY-MM-DD, not "${date}"`);
    const version = release(process.cwd(), positionals[0], date);
    process.stdout.write(
      `Version ${version}, dated ${date}: package.json, package-lock.json and CHANGELOG.md are updated.\n` +
        `Read the diff, then: git commit -am "Release ${version}" && git tag -a v${version} -m "Release ${version}"\n`,
    );
  } catch (error) {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof ReleaseError || error?.code === 'ENOENT' ? 2 : 1;
  }
}
