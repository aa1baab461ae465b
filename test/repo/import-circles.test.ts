/** No module of src/ reaches itself through its imports: each part can be read, tested and moved apart. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCircles, importGraph } from './import-graph';

const root = path.resolve(__dirname, '../..');
const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'import-graph-'));
  temporary.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const named = (dir: string, circles: string[][]) =>
  circles.map((members) => members.map((file) => path.relative(dir, file)));

describe('import circles', () => {
  it('there are none in src/', () => {
    const src = path.join(root, 'src');
    expect(named(src, importCircles(importGraph(src)))).toEqual([]);
  });

  it('finds a circle through a type-only import, a re-export and a folder index', () => {
    const dir = tree({
      'a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'b.ts': "export * from './lib';\nexport type B = string;\n",
      'lib/index.ts': "import { value } from '../c.js';\nexport const lib = value;\n",
      'c.ts': "export const value = 1;\nexport const later = () => import('./b');\n",
      'alone.ts': "import { value } from './c';\nexport const alone = value;\n",
    });
    expect(named(dir, importCircles(importGraph(dir)))).toEqual([['b.ts', 'c.ts', 'lib/index.ts']]);
  });

  it('finds a module that imports itself, and none in a tree without circles', () => {
    const selfish = tree({ 'x.ts': "import './x';\n" });
    expect(named(selfish, importCircles(importGraph(selfish)))).toEqual([['x.ts']]);
    const clean = tree({ 'a.ts': "import './b';\n", 'b.ts': "import 'node:fs';\n" });
    expect(importCircles(importGraph(clean))).toEqual([]);
  });
});
