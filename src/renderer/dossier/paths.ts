/**
 * A dossier as a flat map of leaf paths, so edits can be diffed and merged field by field. Arrays of
 * objects with an `id` (posts, reports) are keyed by id; other arrays are keyed by position.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type PathKey = string;

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyedById(items: Json[]): boolean {
  const ids = items.map((item) => (isObject(item) && typeof item['id'] === 'string' ? item['id'] : null));
  return ids.every((id) => id !== null) && new Set(ids).size === ids.length;
}

function segment(items: Json[], index: number): string {
  const item = items[index];
  return keyedById(items) && isObject(item!) ? `[id=${String(item['id'])}]` : `[${index}]`;
}

/** Leaves keyed by path, e.g. `posts[id=p1].text`, `profile.displayName`, `edges[0].to`. */
export function flatten(value: Json, prefix = '', out = new Map<PathKey, Json>()): Map<PathKey, Json> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(prefix, []);
    value.forEach((item, index) => flatten(item, `${prefix}${segment(value, index)}`, out));
  } else if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) out.set(prefix, {});
    for (const key of keys) flatten(value[key]!, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

export interface Change {
  path: PathKey;
  kind: 'added' | 'removed' | 'changed';
  before?: Json;
  after?: Json;
}

/** Changes from `before` to `after`, leaf by leaf, in a stable order. */
export function diff(before: Json, after: Json): Change[] {
  const a = flatten(before);
  const b = flatten(after);
  const changes: Change[] = [];
  for (const [path, value] of a) {
    if (!b.has(path)) changes.push({ path, kind: 'removed', before: value });
    else if (JSON.stringify(b.get(path)) !== JSON.stringify(value))
      changes.push({ path, kind: 'changed', before: value, after: b.get(path)! });
  }
  for (const [path, value] of b) if (!a.has(path)) changes.push({ path, kind: 'added', after: value });
  return changes.sort((x, y) => x.path.localeCompare(y.path));
}

/**
 * The entity a leaf belongs to, the unit of merging: one post (`posts[id=p1]`), one profile field
 * (`profile.displayName`), one edge (`edges[0]`), or a top-level value (`gatheredAt`).
 */
export function entityOf(path: PathKey): PathKey {
  const match = /^[a-zA-Z]+(?:\[[^\]]+\]|\.[^.[]+)?/.exec(path);
  return match?.[0] ?? path;
}

/**
 * What the other side changed against the base, split by whether my copy holds the very same change: those
 * are not news from them (often my own edit, saved from another window), so they are not listed as theirs.
 */
export function theirChanges(base: Json, theirs: Json, mine: Json): { only: Change[]; shared: Change[] } {
  const mineLeaves = flatten(mine);
  const only: Change[] = [];
  const shared: Change[] = [];
  for (const change of diff(base, theirs)) {
    const same =
      change.kind === 'removed'
        ? !mineLeaves.has(change.path)
        : JSON.stringify(mineLeaves.get(change.path)) === JSON.stringify(change.after);
    (same ? shared : only).push(change);
  }
  return { only, shared };
}
