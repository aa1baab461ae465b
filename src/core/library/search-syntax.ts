/**
 * The library's query language, parsed into a tree: words, "phrases", prefixes (word*), qualifiers
 * (handle:, model:, topic:, tag:, note:, after:, before:), comparisons on analytics (posts>100,
 * sentiment<0), AND / OR / NOT and parentheses; terms side by side are all required. Pure: a tokenizer and a
 * recursive descent parser, no SQL (search-compile.ts turns the tree into a query). A syntax error is a
 * DeskError naming the column (counted in characters as a person sees them) and the length of what is wrong.
 */
import { DeskError } from '../base/errors';
import { whyNotADay } from '../../shared/calendar';

export const QUALIFIERS = ['handle', 'model', 'topic', 'tag', 'note', 'after', 'before'] as const;
export type Qualifier = (typeof QUALIFIERS)[number];
export type TextQualifier = Exclude<Qualifier, 'after' | 'before'>;

export const METRICS = ['posts', 'sentiment', 'likes', 'reposts', 'replies', 'spent'] as const;
export type Metric = (typeof METRICS)[number];
export type Comparison = '>' | '>=' | '<' | '<=' | '=';

export type SearchNode =
  | { kind: 'and' | 'or'; children: SearchNode[] }
  | { kind: 'not'; child: SearchNode }
  /** One word, or several matched as a phrase; `prefix` lets the last word match as a prefix. */
  | { kind: 'text'; words: string[]; prefix: boolean }
  | { kind: 'field'; field: TextQualifier; value: string; prefix: boolean }
  | { kind: 'date'; field: 'after' | 'before'; day: string }
  | { kind: 'compare'; metric: Metric; op: Comparison; value: number };

/** The words a query looks for (outside NOT), for snippets: lower-cased prefixes, and exact words or phrases. */
export interface SearchTerms {
  prefixes: string[];
  phrases: string[][];
}

export interface ParseOptions {
  /** While a person types: a bare last word with nothing after it matches as a prefix. */
  prefixLast?: boolean;
}

/** Longer than any query a person types; the RPC contract allows 500 characters. */
export const MAX_QUERY_CHARS = 1_000;
export const MAX_TERMS = 64;
export const MAX_DEPTH = 32;

const WORD = /[\p{L}\p{N}]+/gu;
const ASCII = /^[\p{ASCII}]*$/u;

/** Lower case without diacritics, as the index's tokenizer (unicode61, remove_diacritics 2) folds words. */
export function foldWord(word: string): string {
  // Most words are ASCII: normalizing each of them made snippets ten times slower.
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export const wordsOf = (text: string): string[] =>
  (text.match(WORD) ?? []).map(foldWord).filter((word) => word.length > 0);

type TokenType = 'lparen' | 'rparen' | 'and' | 'or' | 'not' | 'word' | 'phrase' | 'qualifier' | 'op';
interface Token {
  type: TokenType;
  /** The word, the phrase's inside, the qualifier's name or the operator. */
  text: string;
  start: number;
  end: number;
}

/** Column (from 1) of a UTF-16 offset, counting characters as a person sees them. */
const columnOf = (source: string, offset: number) => [...source.slice(0, offset)].length + 1;

export function syntaxError(source: string, start: number, end: number, message: string): DeskError {
  const column = columnOf(source, start);
  const length = Math.max(1, [...source.slice(start, end)].length);
  return new DeskError('search_syntax', message.replace('{column}', `column ${column}`), 'usage', {
    column,
    length,
  });
}

const shown = (text: string) => (text.length > 24 ? `${[...text].slice(0, 24).join('')}…` : text);
const STOP = /[\s()"<>=]/u;
const KEYWORDS: Record<string, TokenType> = { AND: 'and', OR: 'or', NOT: 'not' };

function tokenize(source: string, typing: boolean): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/u.test(ch)) i++;
    else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch === '(' ? 'lparen' : 'rparen', text: ch, start: i, end: i + 1 });
      i++;
    } else if (ch === '"') {
      let close = source.indexOf('"', i + 1);
      // While a person types a phrase its quote is not closed yet: it runs to the end of what is typed.
      if (close < 0 && typing) close = source.length;
      if (close < 0) throw syntaxError(source, i, i + 1, 'Unclosed quote at {column}: add a closing ".');
      tokens.push({ type: 'phrase', text: source.slice(i + 1, close), start: i, end: close + 1 });
      i = close + 1;
    } else if (ch === '<' || ch === '>' || ch === '=') {
      const op = (ch === '<' || ch === '>') && source[i + 1] === '=' ? `${ch}=` : ch;
      tokens.push({ type: 'op', text: op, start: i, end: i + op.length });
      i += op.length;
    } else {
      let end = i;
      while (end < source.length && !STOP.test(source[end]!)) {
        // "handle:" ends a token of its own; the value is the next one (a word or a "phrase").
        if (source[end] === ':' && /^[A-Za-z]+$/.test(source.slice(i, end))) break;
        end++;
      }
      const text = source.slice(i, end);
      if (source[end] === ':' && end > i) {
        tokens.push({ type: 'qualifier', text: text.toLowerCase(), start: i, end: end + 1 });
        i = end + 1;
      } else {
        tokens.push({ type: KEYWORDS[text] ?? 'word', text, start: i, end });
        i = end;
      }
    }
  }
  return tokens;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function realDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

class Parser {
  private at = 0;
  private terms = 0;
  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
    private readonly prefixLast: boolean,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private fail(token: Token | undefined, message: string): never {
    const start = token?.start ?? this.source.length;
    throw syntaxError(this.source, start, token?.end ?? start + 1, message);
  }

  private unexpected(token: Token | undefined, expected: string): never {
    if (!token) this.fail(token, `The search ends too soon: ${expected} at {column}.`);
    this.fail(token, `Unexpected "${shown(token.text)}" at {column}: ${expected}.`);
  }

  parse(): SearchNode | null {
    if (this.tokens.length === 0) return null;
    const node = this.or(0);
    const rest = this.peek();
    if (rest?.type === 'rparen') this.fail(rest, 'Unexpected ")" at {column}: it closes no "(".');
    if (rest) this.unexpected(rest, 'expected a search term');
    return node;
  }

  private or(depth: number): SearchNode {
    const children = [this.and(depth)];
    while (this.peek()?.type === 'or') {
      this.at++;
      children.push(this.and(depth));
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  }

  private startsTerm(token: Token | undefined): boolean {
    return token !== undefined && ['lparen', 'not', 'word', 'phrase', 'qualifier'].includes(token.type);
  }

  private and(depth: number): SearchNode {
    const children = [this.unary(depth)];
    for (;;) {
      const next = this.peek();
      if (next?.type === 'and') {
        this.at++;
        children.push(this.unary(depth));
      } else if (this.startsTerm(next)) children.push(this.unary(depth));
      else break;
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  }

  private unary(depth: number): SearchNode {
    if (depth > MAX_DEPTH)
      this.fail(this.peek(), `The search nests too deeply at {column}: at most ${MAX_DEPTH} levels.`);
    const token = this.peek();
    if (token?.type !== 'not') return this.primary(depth);
    this.at++;
    if (!this.startsTerm(this.peek())) this.unexpected(this.peek(), 'expected a term after NOT');
    const child = this.unary(depth + 1);
    // NOT NOT x is x: a tree that only says so would nest without limit.
    return child.kind === 'not' ? child.child : { kind: 'not', child };
  }

  private counted(token: Token, node: SearchNode): SearchNode {
    this.terms++;
    if (this.terms > MAX_TERMS)
      this.fail(token, `Too many terms: at most ${MAX_TERMS}; the one at {column} is over.`);
    return node;
  }

  private primary(depth: number): SearchNode {
    const token = this.peek();
    if (!token) return this.unexpected(token, 'expected a search term');
    switch (token.type) {
      case 'lparen': {
        this.at++;
        if (this.peek()?.type === 'rparen') this.unexpected(this.peek(), 'expected a search term inside ( )');
        const inner = this.or(depth + 1);
        if (this.peek()?.type !== 'rparen')
          this.fail(token, 'Unclosed "(" at {column}: add a ")" after what it groups.');
        this.at++;
        return inner;
      }
      case 'phrase': {
        this.at++;
        const words = wordsOf(token.text);
        if (words.length === 0) this.fail(token, 'Empty quotes at {column}: put words between them.');
        return this.counted(token, { kind: 'text', words, prefix: false });
      }
      case 'qualifier':
        this.at++;
        return this.counted(token, this.qualified(token));
      case 'word':
        this.at++;
        if (this.peek()?.type === 'op') return this.counted(token, this.comparison(token));
        return this.counted(token, this.word(token));
      default:
        return this.unexpected(token, 'expected a search term');
    }
  }

  private word(token: Token): SearchNode {
    const star = token.text.endsWith('*');
    const words = wordsOf(token.text);
    // Punctuation alone ("-", "&") finds nothing: it is left out, as the index leaves it out.
    if (words.length === 0) return { kind: 'and', children: [] };
    const typing = this.prefixLast && this.at === this.tokens.length && token.end === this.source.length;
    return { kind: 'text', words, prefix: star || typing };
  }

  private comparison(name: Token): SearchNode {
    const op = this.peek()!;
    const metric = name.text.toLowerCase();
    if (!(METRICS as readonly string[]).includes(metric))
      this.fail(
        name,
        `Unknown figure "${shown(name.text)}" at {column}: compare one of ${METRICS.join(', ')}.`,
      );
    this.at++;
    const value = this.peek();
    if (value?.type !== 'word' || !NUMBER.test(value.text))
      this.fail(value ?? op, `Expected a number after "${name.text}${op.text}" at {column}.`);
    this.at++;
    return {
      kind: 'compare',
      metric: metric as Metric,
      op: op.text as Comparison,
      value: Number(value.text),
    };
  }

  private qualified(token: Token): SearchNode {
    const field = token.text;
    if (!(QUALIFIERS as readonly string[]).includes(field))
      this.fail(
        token,
        `Unknown qualifier "${shown(field)}:" at {column}: use one of ${QUALIFIERS.map((q) => `${q}:`).join(' ')}.`,
      );
    const value = this.peek();
    if (!value || value.start !== token.end || (value.type !== 'word' && value.type !== 'phrase'))
      this.fail(token, `Expected a value right after "${field}:" at {column}.`);
    this.at++;
    if (field === 'after' || field === 'before') {
      if (!realDay(value.text)) {
        const why = whyNotADay(value.text);
        this.fail(
          value,
          why === null
            ? `Expected a date as YYYY-MM-DD after "${field}:" at {column}.`
            : `"${shown(value.text)}" after "${field}:" at {column} is not a date: ${why}.`,
        );
      }
      return { kind: 'date', field, day: value.text };
    }
    const prefix = value.type === 'word' && value.text.endsWith('*');
    const text = (prefix ? value.text.slice(0, -1) : value.text).trim().replace(/^@/, '');
    if (text.length === 0) this.fail(value, `Expected a value right after "${field}:" at {column}.`);
    return { kind: 'field', field: field as TextQualifier, value: text.toLowerCase(), prefix };
  }
}

/** The tree of a query, or null when nothing was typed. Throws a DeskError 'search_syntax' naming the column. */
export function parseQuery(source: string, options: ParseOptions = {}): SearchNode | null {
  if (source.length > MAX_QUERY_CHARS)
    throw syntaxError(
      source,
      MAX_QUERY_CHARS,
      source.length,
      `The search is too long: at most ${MAX_QUERY_CHARS} characters; {column} is past it.`,
    );
  const typing = options.prefixLast ?? false;
  return new Parser(source, tokenize(source, typing), typing).parse();
}
