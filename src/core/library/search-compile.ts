/**
 * A parsed query (search-syntax.ts) as SQL over desk.db. Text that can be one FTS5 expression is: the words
 * required at the top level become the MATCH that ranks (bm25) and drives the query, so a text search costs
 * what it did before qualifiers existed. Everything else is a predicate on the snapshot row `s`: qualifiers
 * and comparisons on indexed columns, and text under OR/NOT beside them as a rowid set from the index. Values
 * reach SQL only as bound parameters; FTS5 sees only letters and digits, each term in double quotes.
 */
import type { Metric, SearchNode, SearchTerms } from './search-syntax';
import { TOKEN_DECIMALS, usdNumberToUnits } from '../../shared/money';

export interface CompiledSearch {
  /** The FTS5 expression that ranks, or null: then the rows are the predicates' alone, newest first. */
  match: string | null;
  /** SQL conditions on `s` (snapshots), all required. */
  where: string[];
  params: Record<string, string | number | bigint>;
  /** What to mark in snippets. */
  terms: SearchTerms;
}

/** Nodes that match nothing in particular (punctuation typed alone) go; single-child groups unwrap. */
export function simplify(node: SearchNode): SearchNode | null {
  if (node.kind === 'not') {
    const child = simplify(node.child);
    return child ? { kind: 'not', child } : null;
  }
  if (node.kind !== 'and' && node.kind !== 'or') return node;
  const children = node.children
    .map(simplify)
    .filter((child): child is SearchNode => child !== null)
    .flatMap((child) =>
      child.kind === node.kind ? (child as { children: SearchNode[] }).children : [child],
    );
  if (children.length === 0) return null;
  return children.length === 1 ? children[0]! : { kind: node.kind, children };
}

const textOnly = (node: SearchNode): boolean =>
  node.kind === 'text' ||
  (node.kind === 'not' && textOnly(node.child)) ||
  ((node.kind === 'and' || node.kind === 'or') && node.children.every(textOnly));

/**
 * The whole words of the index that start with a prefix, or null to leave the prefix to FTS5 (see
 * search-vocabulary.ts: the same matches, found by merging every such word's doclist first).
 */
export type Expand = (prefix: string) => string[] | null;

/** `"w1 w2 pre"*` as the phrases it stands for: `("w1 w2 prefix" OR "w1 w2 preface")`. */
function prefixPhrase(words: string[], expand: Expand | undefined): string {
  const whole = expand?.(words.at(-1)!) ?? null;
  if (whole === null || whole.length === 0) return `"${words.join(' ')}"*`;
  const phrases = whole.map((word) => `"${[...words.slice(0, -1), word].join(' ')}"`);
  return phrases.length === 1 ? phrases[0]! : `(${phrases.join(' OR ')})`;
}

/** The node as one FTS5 expression, or null when FTS5 cannot say it (a NOT with nothing to subtract from). */
export function ftsOf(node: SearchNode, expand?: Expand): string | null {
  const fts = (child: SearchNode) => ftsOf(child, expand);
  switch (node.kind) {
    case 'text':
      return node.prefix ? prefixPhrase(node.words, expand) : `"${node.words.join(' ')}"`;
    case 'or': {
      const parts = node.children.map(fts);
      return parts.every((part) => part !== null) ? `(${parts.join(' OR ')})` : null;
    }
    case 'and': {
      const required = node.children.filter((child) => child.kind !== 'not').map(fts);
      const excluded = node.children.flatMap((child) => (child.kind === 'not' ? [fts(child.child)] : []));
      if (required.length === 0 || [...required, ...excluded].some((part) => part === null)) return null;
      return `(${required.join(' AND ')})${excluded.map((part) => ` NOT ${part}`).join('')}`;
    }
    default:
      return null;
  }
}

/** SQLite's largest integer. */
const SQLITE_MAX_INTEGER = 2n ** 63n - 1n;

/**
 * A dollar figure typed in a search, bound against base units: exactly when it is a whole number of them (from
 * the figure's decimal form, never its binary expansion, which made `spent>1.005` match a report that cost
 * exactly $1.005). A figure finer than a base unit, or past SQLite's integers, is never a whole number of
 * units, so as a real it compares with the integer column the right way round.
 */
function typedUsdBound(usd: number): bigint | number {
  const units = usdNumberToUnits(Math.abs(usd));
  if (units === null || units > SQLITE_MAX_INTEGER) return usd * 10 ** TOKEN_DECIMALS;
  return usd < 0 ? -units : units;
}

/** Where each figure is kept: on the snapshot row, or in snapshot_facts (narrow rows, quick to scan). */
const COLUMNS: Record<Metric, { column: string; facts: boolean; bound: (typed: number) => number | bigint }> =
  {
    posts: { column: 's.post_count', facts: false, bound: (typed) => typed },
    sentiment: { column: 'sentiment', facts: true, bound: (typed) => typed },
    likes: { column: 'likes', facts: true, bound: (typed) => typed },
    reposts: { column: 'reposts', facts: true, bound: (typed) => typed },
    replies: { column: 'replies', facts: true, bound: (typed) => typed },
    // Kept in USDC's smallest unit; typed in dollars.
    spent: { column: 's.spent_atomic', facts: false, bound: typedUsdBound },
  };

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** Past every string that starts with the prefix: a range on an index instead of a LIKE scan. */
const PREFIX_END = '\u{10FFFF}';

/**
 * Reports whose label (tag or note, kept per service and report id) passes the test. Labels are few: each one
 * finds its stored copies through their unique key, so snapshot_filters need not carry the id.
 */
const labelled = (table: 'report_tags' | 'report_notes', test: string) =>
  `s.text_id IN (SELECT c.text_id FROM ${table} l
     JOIN snapshots c ON c.id = l.report_id AND c.service_url = l.service_url WHERE ${test})`;

class SqlBuilder {
  readonly params: Record<string, string | number | bigint> = {};
  private next = 0;

  constructor(private readonly expand: Expand | undefined) {}

  bind(value: string | number | bigint): string {
    const name = `p${this.next++}`;
    this.params[name] = value;
    return `@${name}`;
  }

  /** `column = value`, or the range of values starting with it. */
  private equalsOrPrefix(column: string, value: string, prefix: boolean): string {
    return prefix
      ? `${column} >= ${this.bind(value)} AND ${column} < ${this.bind(value + PREFIX_END)}`
      : `${column} = ${this.bind(value)}`;
  }

  sql(node: SearchNode): string {
    if (textOnly(node)) {
      const fts = ftsOf(node, this.expand);
      if (fts !== null)
        return `s.text_id IN (SELECT rowid FROM snapshot_search WHERE snapshot_search MATCH ${this.bind(fts)})`;
    }
    switch (node.kind) {
      case 'not':
        return `NOT (${this.sql(node.child)})`;
      case 'and':
      case 'or':
        return `(${node.children.map((child) => this.sql(child)).join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'text':
        throw new Error('unreachable: text is always an FTS5 expression');
      case 'date':
        return `s.created_at ${node.field === 'after' ? '>=' : '<'} ${this.bind(node.day)}`;
      case 'compare': {
        const { column, facts, bound } = COLUMNS[node.metric];
        const test = `${column} ${node.op} ${this.bind(bound(node.value))}`;
        return facts ? `s.text_id IN (SELECT text_id FROM snapshot_facts WHERE ${test})` : test;
      }
      case 'field':
        return this.field(node);
    }
  }

  private field(node: Extract<SearchNode, { kind: 'field' }>): string {
    switch (node.field) {
      case 'handle':
        return this.equalsOrPrefix('s.handle', node.value, node.prefix);
      case 'model':
        return `s.model LIKE ${this.bind(`${likeEscaped(node.value)}${node.prefix ? '%' : ''}`)} ESCAPE '\\'`;
      case 'topic':
        return `s.text_id IN (SELECT text_id FROM snapshot_topics WHERE ${this.equalsOrPrefix('topic', node.value, node.prefix)})`;
      case 'tag':
        return labelled('report_tags', this.equalsOrPrefix('tag', node.value, node.prefix));
      case 'note':
        return labelled('report_notes', `note LIKE ${this.bind(`%${likeEscaped(node.value)}%`)} ESCAPE '\\'`);
    }
  }
}

/** Words to mark in snippets: those a match looks for, not those under NOT. */
function collectTerms(node: SearchNode, terms: SearchTerms): SearchTerms {
  if (node.kind === 'text') {
    if (node.words.length === 1 && node.prefix) terms.prefixes.push(node.words[0]!);
    else terms.phrases.push(node.words);
  } else if (node.kind === 'and' || node.kind === 'or') node.children.forEach((c) => collectTerms(c, terms));
  return terms;
}

export function compileSearch(tree: SearchNode | null, expand?: Expand): CompiledSearch | null {
  const node = tree ? simplify(tree) : null;
  if (!node) return null;
  const terms = collectTerms(node, { prefixes: [], phrases: [] });
  const conjuncts = node.kind === 'and' ? node.children : [node];
  // A NOT joins the MATCH only beside a word it can subtract from: FTS5 has no NOT on its own.
  const ranked = conjuncts.filter(
    (c) => textOnly(c) && (ftsOf(c) !== null || (c.kind === 'not' && ftsOf(c.child) !== null)),
  );
  const match = ranked.some((c) => c.kind !== 'not')
    ? ftsOf({ kind: 'and', children: ranked }, expand)
    : null;
  const rest = match === null ? conjuncts : conjuncts.filter((conjunct) => !ranked.includes(conjunct));
  const builder = new SqlBuilder(expand);
  const where = rest.map((conjunct) => builder.sql(conjunct));
  return { match, where, params: builder.params, terms };
}

/** How the query reads back to a person, for "nothing matches …". */
export function describeQuery(tree: SearchNode | null): string[] {
  const node = tree ? simplify(tree) : null;
  if (!node) return [];
  const terms = collectTerms(node, { prefixes: [], phrases: [] });
  return [
    ...terms.phrases.map((words) => (words.length > 1 ? `"${words.join(' ')}"` : words[0]!)),
    ...terms.prefixes.map((word) => `${word}*`),
  ];
}
