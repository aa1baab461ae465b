/** CHANGELOG.md's shape, and `npm run release` on a temporary copy of the package files. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module without types: a release needs nothing compiled
import { changelogProblems } from '../../scripts/release.mjs';
import { tempDir } from '../core/helpers';

const root = path.resolve(__dirname, '../..');
const problemsOf = changelogProblems as (text: string) => string[];

const SAMPLE = `# Changelog

Intro.

## Unreleased

### Added

- A new thing.

### Fixed

- A broken thing works.

## 0.1.0 - 2026-11-25

### Added

- The first thing.
`;

describe('CHANGELOG.md', () => {
  it('keeps Keep a Changelog sections under version headings, one line per entry', () => {
    const text = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    expect(problemsOf(text)).toEqual([]);
    expect(text).toMatch(/^## 0\.1\.0 - \d{4}-\d{2}-\d{2}$/m);
  });

  it('names what is out of shape', () => {
    expect(problemsOf(SAMPLE)).toEqual([]);
    expect(problemsOf(SAMPLE.replace('### Added\n\n- A new thing.', '- A bare entry.'))).toEqual([
      'line 7: an entry outside an Added/Changed/… section',
    ]);
    expect(problemsOf(SAMPLE.replace('- A new thing.', '- A new\n  thing.'))).toEqual([
      'line 10: an entry goes on one line',
    ]);
    expect(problemsOf(SAMPLE.replace('### Fixed', '### Improved'))).toEqual([
      'line 11: "Improved" is not one of Added, Changed, Deprecated, Removed, Fixed, Security',
    ]);
    expect(problemsOf(SAMPLE.replace('## 0.1.0 - 2026-11-25', '## v0.1.0'))).toEqual([
      'line 15: a version heading is "## X.Y.Z - YYYY-MM-DD", not "## v0.1.0"',
    ]);
  });
});

describe('npm run release', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

  function copy(changelog = SAMPLE): string {
    const dir = tempDir('desk-release-');
    dirs.push(dir);
    copyFileSync(path.join(root, 'package.json'), path.join(dir.dir, 'package.json'));
    writeFileSync(
      path.join(dir.dir, 'package-lock.json'),
      JSON.stringify({ name: 'intel-desk', version: '0.1.0', packages: { '': { version: '0.1.0' } } }),
    );
    writeFileSync(path.join(dir.dir, 'CHANGELOG.md'), changelog);
    return dir.dir;
  }

  const release = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, 'scripts/release.mjs'), ...args], { cwd, encoding: 'utf8' });
  const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');
  const version = (dir: string, file: string) => (JSON.parse(read(dir, file)) as { version: string }).version;

  it('is the package script', () => {
    const manifest = JSON.parse(read(root, 'package.json')) as { scripts: Record<string, string> };
    expect(manifest.scripts['release']).toBe('node scripts/release.mjs');
  });

  it('bumps the version and moves Unreleased under its dated heading', () => {
    const dir = copy();
    writeFileSync(
      path.join(dir, 'package.json'),
      read(dir, 'package.json').replace(/"version": "[^"]+"/, '"version": "0.1.0"'),
    );
    const run = release(dir, 'minor', '--date', '2026-12-01');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('git tag -a v0.2.0');
    expect(version(dir, 'package.json')).toBe('0.2.0');
    expect(version(dir, 'package-lock.json')).toBe('0.2.0');
    const lock = JSON.parse(read(dir, 'package-lock.json')) as {
      packages: Record<string, { version: string }>;
    };
    expect(lock.packages['']?.version).toBe('0.2.0');
    const changelog = read(dir, 'CHANGELOG.md');
    expect(changelog).toBe(SAMPLE.replace('## Unreleased\n', '## Unreleased\n\n## 0.2.0 - 2026-12-01\n'));
    expect(problemsOf(changelog)).toEqual([]);

    // Nothing new since: a second release is refused and changes nothing.
    const again = release(dir, 'patch');
    expect(again.status).toBe(2);
    expect(again.stderr).toBe('release: Unreleased has no entries: nothing to release\n');
    expect(version(dir, 'package.json')).toBe('0.2.0');
  });

  it('counts patch and major from the current version', () => {
    const dir = copy();
    expect(release(dir, 'patch', '--date', '2026-12-01').status).toBe(0);
    const patched = version(dir, 'package.json');
    writeFileSync(
      path.join(dir, 'CHANGELOG.md'),
      SAMPLE.replace('0.1.0 - 2026-11-25', `${patched} - 2026-12-01`),
    );
    expect(release(dir, 'major', '--date', '2026-12-02').status).toBe(0);
    expect(version(dir, 'package.json')).toBe(`${Number(patched.split('.')[0]) + 1}.0.0`);
  });

  it('refuses a missing or unknown release kind and a changelog out of shape, changing nothing', () => {
    const dir = copy(SAMPLE.replace('### Added\n\n- A new thing.', '- A bare entry.'));
    const before = ['package.json', 'CHANGELOG.md'].map((file) => read(dir, file));
    expect(release(dir).stderr).toBe('release: say which release: patch, minor or major (not "")\n');
    expect(release(dir, 'huge').status).toBe(2);
    const shape = release(dir, 'patch');
    expect(shape.status).toBe(2);
    expect(shape.stderr).toMatch(/CHANGELOG\.md is not in shape:\n {2}line 7: an entry outside/);
    expect(['package.json', 'CHANGELOG.md'].map((file) => read(dir, file))).toEqual(before);
  });
});
