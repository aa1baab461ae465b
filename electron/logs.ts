/**
 * The shell's log: one text file in the user data folder, rotated by size (main.log, main.log.1, …), so a
 * person can send it and it never grows without bound. Writes are synchronous on purpose: the line that
 * explains a crash must be on disk before the error dialog names the file.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export interface LogOptions {
  dir: string;
  name?: string;
  /** Size at which the current file is rotated. */
  maxBytes?: number;
  /** How many rotated files (name.1 … name.keep) are kept beside the current one. */
  keep?: number;
  now?: () => Date;
  /** Where a line also goes; the terminal of `npm start` by default. */
  echo?: (line: string) => void;
}

export interface ShellLog {
  readonly dir: string;
  readonly file: string;
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

export function openRotatingLog(options: LogOptions): ShellLog {
  const name = options.name ?? 'main.log';
  const maxBytes = options.maxBytes ?? 1_000_000;
  const keep = options.keep ?? 4;
  const now = options.now ?? (() => new Date());
  const echo = options.echo ?? ((line: string) => process.stderr.write(line));
  const file = path.join(options.dir, name);
  let size = 0;
  let broken = false;
  try {
    mkdirSync(options.dir, { recursive: true });
    size = existsSync(file) ? statSync(file).size : 0;
  } catch (error) {
    broken = true;
    echo(`The log folder ${options.dir} cannot be used: ${describeError(error)}\n`);
  }

  const rotate = () => {
    rmSync(`${file}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) {
      if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    }
    if (keep > 0) renameSync(file, `${file}.1`);
    else rmSync(file, { force: true });
    size = 0;
  };

  const write = (level: 'info' | 'error', message: string) => {
    const line = `${now().toISOString()} ${level} ${message}\n`;
    echo(line);
    if (broken) return;
    const bytes = Buffer.byteLength(line);
    try {
      if (size > 0 && size + bytes > maxBytes) rotate();
      appendFileSync(file, line, { mode: 0o600 });
      size += bytes;
    } catch (error) {
      // A full disk or a removed folder must not take the app down with it; the terminal still has the line.
      echo(`Writing ${file} failed: ${describeError(error)}\n`);
    }
  };

  return {
    dir: options.dir,
    file,
    info: (message) => write('info', message),
    error: (message, error) =>
      write('error', error === undefined ? message : `${message}: ${describeError(error)}`),
  };
}
