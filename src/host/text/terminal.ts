/**
 * Text for a terminal or an assistant, shared by the CLI and the MCP server: service text without the
 * control characters a terminal acts on, invisible characters shown, JSON escaped the same way, and tables.
 */
import { stripControls } from '../../core/library/plain-text';

/**
 * Characters a terminal draws as nothing but that change what is seen: every Unicode format character (Cf:
 * bidi embeddings, overrides and isolates U+202A–202E and U+2066–2069, zero-width spaces and joiners and the
 * directional marks U+200B–200F, U+2060–2064, U+FEFF, U+061C, U+180E, soft hyphen, tag characters), the line
 * and paragraph separators, and the blank Hangul fillers. Service text holding them can reorder a line or
 * hide part of it ("Trojan Source").
 */
const INVISIBLE = /[\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]/gu;

const codePoint = (c: string) => (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/** Each invisible character as a visible escape such as <U+202E>. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `<U+${codePoint(c)}>`);
}

/**
 * Everything the CLI prints passes through one of these: report text is the service's, and a terminal acts on
 * control characters in it (screen clears, OSC 52 clipboard writes), so they go; invisible characters that
 * reorder or hide text are shown as escapes. Applying it twice changes nothing more.
 */
export const terminalText = (text: string): string => showInvisible(stripControls(text));

/** Each UTF-16 unit of a character as a JSON \u escape. */
const jsonEscape = (c: string) =>
  [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * JSON text with DEL and C1 controls (U+0080–U+009F: one-character CSI and OSC) and the invisible characters
 * above written as \u escapes, which JSON.stringify leaves raw; it escapes C0 itself, and JSON text can hold no
 * raw C0. The value is unchanged.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\u007F-\u009F]/g, jsonEscape).replace(INVISIBLE, jsonEscape);
}

export const terminalJson = (value: unknown, indent = 2) =>
  escapeJsonControls(JSON.stringify(value, null, indent));

export function table(rows: Record<string, string | number | null | undefined>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  // Cells are filtered before they are measured, so a cell whose escapes lengthen it keeps the columns aligned.
  const cells = rows.map((row) => columns.map((column) => terminalText(String(row[column] ?? ''))));
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...cells.map((cell) => (cell[i] ?? '').length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
