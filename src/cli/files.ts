/** Files the person names on the command line, read with errors that say what is wrong in words. */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from './output';

const REASONS: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'cannot be read: permission denied',
  EPERM: 'cannot be read: permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'does not exist (a part of its path is not a folder)',
};

/** The file's text; a missing, unreadable or folder path is a usage error naming `what` and the path. */
export function readNamedFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = REASONS[code] ?? `cannot be read (${(error as Error).message})`;
    throw new UsageError(`the ${what} ${file} ${reason}`);
  }
}

/** A file another part reads by path: named as missing or a folder here, before anything else is tried. */
export function requireNamedFile(file: string, what: string): void {
  let folder: boolean;
  try {
    folder = statSync(file).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(
      `the ${what} ${file} ${REASONS[code] ?? `cannot be read (${(error as Error).message})`}`,
    );
  }
  if (folder) throw new UsageError(`the ${what} ${file} ${REASONS['EISDIR'] ?? ''}`);
}

/** The file as JSON; text that does not parse is named as such, with the parser's reason. */
export function readJsonFile(file: string, what: string): unknown {
  const text = readNamedFile(file, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the ${what} ${file} is not valid JSON: ${(error as Error).message}`);
  }
}
