/**
 * Three-way merge of dossiers by entity (a profile field, one post, one edge, one report): a change made on
 * one side only is taken; the same entity changed differently on both sides is a conflict the user settles.
 */
import { entityOf, flatten, type Json, type PathKey } from './paths';

export interface Conflict {
  entity: PathKey;
  base: Json | undefined;
  theirs: Json | undefined;
  mine: Json | undefined;
}

export interface MergeResult {
  merged: Json;
  conflicts: Conflict[];
}

type JsonObject = { [key: string]: Json };
type Ref =
  | { top: string; kind: 'whole' }
  | { top: string; kind: 'field'; key: string }
  | { top: string; kind: 'item'; id: string | null; index: number };

function parse(entity: PathKey): Ref {
  const item = /^([a-zA-Z]+)\[(?:id=(.*)|(\d+))\]$/.exec(entity);
  if (item)
    return {
      top: item[1]!,
      kind: 'item',
      id: item[2] ?? null,
      index: item[3] === undefined ? -1 : Number(item[3]),
    };
  const field = /^([a-zA-Z]+)\.(.+)$/.exec(entity);
  if (field) return { top: field[1]!, kind: 'field', key: field[2]! };
  return { top: entity, kind: 'whole' };
}

function valueAt(root: JsonObject, ref: Ref): Json | undefined {
  const top = root[ref.top];
  if (ref.kind === 'whole') return top;
  if (ref.kind === 'field')
    return top && typeof top === 'object' && !Array.isArray(top) ? top[ref.key] : undefined;
  if (!Array.isArray(top)) return undefined;
  if (ref.id === null) return top[ref.index];
  return top.find(
    (entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry) && entry['id'] === ref.id,
  );
}

function entities(value: Json): Map<PathKey, Json> {
  const root = value as JsonObject;
  const out = new Map<PathKey, Json>();
  for (const path of flatten(value).keys()) {
    const entity = entityOf(path);
    const found = valueAt(root, parse(entity));
    if (!out.has(entity) && found !== undefined) out.set(entity, found);
  }
  return out;
}

/** Rebuilds a dossier from entity values: top-level keys in the order of `shape`, items in entity order. */
function rebuild(shape: JsonObject, chosen: Map<PathKey, Json>): JsonObject {
  const grouped = new Map<string, { whole?: Json; fields: [string, Json][]; items: Json[] }>();
  for (const [entity, value] of chosen) {
    const ref = parse(entity);
    const group = grouped.get(ref.top) ?? { fields: [], items: [] };
    if (ref.kind === 'whole') group.whole = value;
    else if (ref.kind === 'field') group.fields.push([ref.key, value]);
    else group.items.push(value);
    grouped.set(ref.top, group);
  }
  const out: JsonObject = {};
  const tops = [...new Set([...Object.keys(shape), ...grouped.keys()])];
  for (const top of tops) {
    const group = grouped.get(top);
    if (!group) {
      // Every entity of this key was removed: keep its kind, empty.
      if (Array.isArray(shape[top])) out[top] = [];
      else if (shape[top] !== null && typeof shape[top] === 'object') out[top] = {};
      continue;
    }
    if (group.items.length > 0 || Array.isArray(group.whole)) out[top] = group.items;
    else if (group.fields.length > 0) out[top] = Object.fromEntries(group.fields);
    else out[top] = group.whole ?? null;
  }
  return out;
}

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

export function threeWayMerge(base: Json, theirs: Json, mine: Json): MergeResult {
  const [b, t, m] = [entities(base), entities(theirs), entities(mine)];
  const order = [...new Set([...t.keys(), ...m.keys(), ...b.keys()])];
  const chosen = new Map<PathKey, Json>();
  const conflicts: Conflict[] = [];
  for (const entity of order) {
    const [bv, tv, mv] = [b.get(entity), t.get(entity), m.get(entity)];
    let value: Json | undefined;
    if (same(tv, mv) || same(bv, mv)) value = tv;
    else if (same(bv, tv)) value = mv;
    else {
      conflicts.push({ entity, base: bv, theirs: tv, mine: mv });
      value = tv;
    }
    if (value !== undefined) chosen.set(entity, value);
  }
  return { merged: rebuild(theirs as JsonObject, chosen), conflicts };
}

/** Applies the user's choice for one conflict to a merged dossier. */
export function resolveConflict(merged: Json, conflict: Conflict, take: 'theirs' | 'mine'): Json {
  const current = entities(merged);
  const value = take === 'theirs' ? conflict.theirs : conflict.mine;
  if (value === undefined) current.delete(conflict.entity);
  else current.set(conflict.entity, value);
  return rebuild(merged as JsonObject, current);
}
