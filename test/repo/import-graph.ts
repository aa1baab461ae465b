/**
 * The import graph of a source tree, read from its files: static imports, re-exports and dynamic imports of
 * relative paths, type-only ones included (a circle of types is still two modules that cannot be read apart).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(?:ts|tsx|mts)$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveModule(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((file) => SOURCE.test(file) && existsSync(file) && statSync(file).isFile()) ?? null;
}

export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveModule(file, match[1] ?? '');
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every strongly connected set of two or more modules (or one importing itself), by Tarjan's algorithm. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/**
 * Circles between the parts of each folder: at every folder, its files and subfolders are the parts, and a
 * part depends on another when any module inside it imports any module inside the other. A tie such as
 * `core: cache ⇄ context.ts` has no file-level circle, yet neither part can be read or moved without the
 * other. Each is named as `folder: a ⇄ b`, folder relative to root ('.' for root itself).
 */
export function folderTies(graph: Map<string, string[]>, root: string): string[] {
  const partsByFolder = new Map<string, Map<string, Set<string>>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = path.relative(root, from).split(path.sep);
      const b = path.relative(root, to).split(path.sep);
      let shared = 0;
      while (shared < a.length - 1 && shared < b.length - 1 && a[shared] === b[shared]) shared += 1;
      const [fromPart, toPart] = [a[shared]!, b[shared]!];
      if (fromPart === toPart) continue;
      const folder = a.slice(0, shared).join('/') || '.';
      const parts = partsByFolder.get(folder) ?? new Map<string, Set<string>>();
      partsByFolder.set(folder, parts);
      const edges = parts.get(fromPart) ?? new Set<string>();
      parts.set(fromPart, edges);
      edges.add(toPart);
    }
  }
  const ties: string[] = [];
  for (const [folder, parts] of partsByFolder) {
    const partGraph = new Map([...parts].map(([part, edges]) => [part, [...edges]]));
    for (const circle of importCircles(partGraph)) ties.push(`${folder}: ${circle.join(' ⇄ ')}`);
  }
  return ties.sort();
}
