/** How the CLI speaks: JSON for scripts, aligned tables for people, progress on stderr, exit codes by kind. */
import { DeskError, type DeskErrorKind } from '../core/errors';
import { stripControls } from '../core/plain-text';

export const EXIT: Record<DeskErrorKind | 'ok', number> = {
  ok: 0,
  internal: 1,
  usage: 2,
  refused: 3,
  wallet: 3,
  service: 4,
  network: 5,
  storage: 1,
};

export class UsageError extends DeskError {
  constructor(message: string) {
    super('usage', message, 'usage');
  }
}

/**
 * Everything the CLI prints passes through one of these: report text is the service's, and a terminal acts on
 * control characters in it (screen clears, OSC 52 clipboard writes).
 */
export const terminalText = stripControls;

/**
 * JSON text with DEL and C1 controls (U+0080–U+009F: one-character CSI and OSC) written as \u escapes, which
 * JSON.stringify leaves raw; it escapes C0 itself, and JSON text can hold no raw C0. The value is unchanged.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\u007F-\u009F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const terminalJson = (value: unknown, indent = 2) =>
  escapeJsonControls(JSON.stringify(value, null, indent));

export interface Output {
  json: boolean;
  result(value: unknown, human: () => string): void;
  progress(line: string): void;
}

export function output(json: boolean): Output {
  // On a terminal the progress line is redrawn in place and cleared before the result; elsewhere each is a line.
  const live = !json && process.stderr.isTTY;
  let shown = false;
  return {
    json,
    result(value, human) {
      if (shown) process.stderr.write('\r\x1b[2K');
      shown = false;
      process.stdout.write(json ? `${terminalJson(value)}\n` : `${terminalText(human())}\n`);
    },
    progress(line) {
      const text = terminalText(line).replaceAll('\n', ' ');
      process.stderr.write(live ? `\r\x1b[2K${text}` : `${text}\n`);
      shown = live;
    },
  };
}

export function table(rows: Record<string, string | number | null | undefined>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? '')));
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

export function reportError(error: unknown, json: boolean): number {
  const desk = error instanceof DeskError ? error : null;
  const code = desk?.code ?? 'internal';
  const message =
    desk?.message ?? `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  if (json) process.stdout.write(`${terminalJson({ error: { code, message } }, 0)}\n`);
  // The code goes on the first line: a message may go on to show the input with a caret under a column.
  const [first = '', ...rest] = terminalText(message).split('\n');
  const lines = [`${first}${code !== 'usage' ? ` [${code}]` : ''}`, ...rest];
  process.stderr.write(`intel-desk: ${lines.join('\n')}\n`);
  return EXIT[desk?.kind ?? 'internal'];
}
