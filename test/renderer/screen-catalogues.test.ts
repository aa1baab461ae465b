/**
 * Decision 0049: a screen's words are in its catalogue (src/renderer/text/), so a translation is a file, not
 * a rewrite. Every module of the screens, the wallet panels and the app shell is read as TypeScript, and its
 * JSX text, string literals and person-read attributes are checked: one that holds words of its own (two
 * words, a JSX text or a title, label or placeholder with a word) fails, unless it is a class name, a test
 * id, an import or in the short list below.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const RENDERER = join(ROOT, 'src/renderer');
/**
 * The screens, the wallet panels (its components; the connectors' own refusals are not a screen's) and the
 * app shell: every part of the window whose words have a catalogue.
 */
const SCANNED = [
  ...modules(join(RENDERER, 'screens')),
  ...modules(join(RENDERER, 'wallet')).filter((path) => path.endsWith('.tsx')),
  ...modules(join(RENDERER, 'app')),
];

/** Texts that are not words for a person: the query language's operators, CSS. By file, exact text. */
const ALLOWED: Record<string, readonly string[]> = {
  'screens/QueryHelp.tsx': ['OR', 'NOT', '&gt;', '&gt;=', '&lt;', '&lt;='],
  'screens/SpendCharts.tsx': ['1px solid var(--line)'],
  'screens/purchase/PurchasePanel.tsx': ['input, textarea, select, [contenteditable="true"]'],
  'app/Welcome.tsx': ['handle:', 'topic:', 'posts&gt;100'],
  'app/theme.ts': ['(prefers-color-scheme: dark)'],
};

/** Attributes whose value is for the code or the styles, never read by a person. */
const MACHINE_ATTRIBUTES = new Set([
  'className',
  'data-testid',
  'testId',
  'key',
  'id',
  'type',
  'name',
  'rel',
  'accept',
]);

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const TWO_WORDS = /\p{L}{2,}[\s,;:]+\p{L}{2,}/u;
const A_WORD = /\p{L}{2,}/u;
/** Attributes a person reads (or hears): one word there is already words of the screen's own. */
const PERSON_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'aria-valuetext',
  'placeholder',
  'alt',
  'label',
  'inputLabel',
  'saveLabel',
  'clearLabel',
  'what',
]);

function personAttribute(node: ts.Node): boolean {
  return ts.isJsxAttribute(node.parent) && PERSON_ATTRIBUTES.has(node.parent.name.getText());
}

function machineContext(node: ts.Node): boolean {
  for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
    if (ts.isImportDeclaration(up) || ts.isExportDeclaration(up)) return true;
    if (ts.isJsxAttribute(up)) return MACHINE_ATTRIBUTES.has(up.name.getText());
    // A class list built in code (`current ? 'row current' : 'row'`) ends in a className attribute.
    if (ts.isCallExpression(up) || ts.isJsxElement(up) || ts.isJsxSelfClosingElement(up)) return false;
  }
  return false;
}

/** The texts of a module a person would read that are not looked up in a catalogue. */
function ownWords(path: string): string[] {
  return ownWordsOf(readFileSync(path, 'utf8'));
}

function ownWordsOf(code: string): string[] {
  const source = ts.createSourceFile('module.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.getText().trim();
      if (A_WORD.test(text)) found.push(text);
    } else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const words = personAttribute(node) ? A_WORD.test(node.text) : TWO_WORDS.test(node.text);
      if (words && !machineContext(node)) found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('screen catalogues', () => {
  it('leaves no sentence of its own in a screen module', () => {
    const offenders = SCANNED.flatMap((path) => {
      const name = relative(RENDERER, path).split('\\').join('/');
      const allowed = new Set(ALLOWED[name] ?? []);
      return ownWords(path)
        .filter((text) => !allowed.has(text))
        .map((text) => `${name}: ${JSON.stringify(text)}`);
    });
    expect(offenders).toEqual([]);
  });

  it('finds a sentence written inline', () => {
    // The scan itself: a JSX text, a two-word literal and a title are found; a class list and an import are not.
    const found = ownWordsOf(
      'import x from \'a b\';\nconst C = () => <p className="a b" title="Title">Hello there {\'two words\'}</p>;',
    );
    expect(found).toEqual(['Title', 'Hello there', 'two words']);
  });
});
