/** A module (or a style sheet) past 400 lines has more than one job: split it before it grows further. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const LIMIT = 400;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(?:ts|tsx|css)$/.test(name) ? [full] : [];
  });
}

describe('module size', () => {
  it(`no source file or style sheet in src/ or electron/ is over ${LIMIT} lines`, () => {
    const long = ['src', 'electron']
      .flatMap((dir) => sources(path.join(root, dir)))
      .map((file) => ({
        file: path.relative(root, file),
        lines: readFileSync(file, 'utf8').split('\n').length - 1,
      }))
      .filter(({ lines }) => lines > LIMIT);
    expect(long).toEqual([]);
  });
});
