/** How the CLI speaks: JSON for scripts, aligned tables for people, progress on stderr, exit codes by kind. */
import { DeskError, type DeskErrorKind } from '../core/errors';

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
      process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
    },
    progress(line) {
      process.stderr.write(live ? `\r\x1b[2K${line}` : `${line}\n`);
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
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  process.stderr.write(`intel-desk: ${message}${code !== 'usage' ? ` [${code}]` : ''}\n`);
  return EXIT[desk?.kind ?? 'internal'];
}
