/** How the CLI speaks: JSON for scripts, aligned tables for people, progress on stderr, exit codes by kind. */
import { DeskError, type DeskErrorKind } from '../core/base/errors';
import { terminalJson, terminalText } from '../host/text/terminal';
import type { DeskErrorCode } from '../shared/error-codes';

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

export { plural as count } from '../shared/words';
// The text every CLI module prints through is the MCP server's too (src/host/text/); commands take it from here.
export { escapeJsonControls, table, terminalText } from '../host/text/terminal';
export { UsageError } from '../host/text/usage-error';

/**
 * Codes whose exit status is not their kind's: a save refused because someone else saved first is neither a
 * refused payment (3) nor a broken service (4); a script retries it by fetching again.
 */
const EXIT_BY_CODE: Partial<Record<DeskErrorCode, number>> = { bundle_conflict: 6, bundle_not_written: 6 };

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

export function reportError(error: unknown, json: boolean): number {
  const deskError = error instanceof DeskError ? error : null;
  const code = deskError?.code ?? 'internal';
  const message =
    deskError?.message ?? `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  if (json) process.stdout.write(`${terminalJson({ error: { code, message } }, 0)}\n`);
  // The code goes on the first line: a message may go on to show the input with a caret under a column.
  const [first = '', ...rest] = terminalText(message).split('\n');
  const lines = [`${first}${code !== 'usage' ? ` [${code}]` : ''}`, ...rest];
  process.stderr.write(`intel-desk: ${lines.join('\n')}\n`);
  return (deskError && EXIT_BY_CODE[deskError.code]) ?? EXIT[deskError?.kind ?? 'internal'];
}
