/**
 * Who holds something shared through desk.db (a purchase request being approved): a process id and a stamp of
 * when that process started, so a later process can tell a holder that is still running from one that died
 * (kill -9, a crash, the machine off) or whose id the system has since given to another process.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export interface ProcessHolder {
  pid: number;
  /** When the process started, as the system tells it; null where it cannot be read (Windows). */
  stamp: string | null;
}

interface Seen {
  running: boolean;
  stamp: string | null;
}

/**
 * Linux: field 22 of /proc/<pid>/stat (start time in clock ticks after boot, exact for the life of the
 * process), and its state, where Z (a zombie) has already ended. The fields are read after the last ')',
 * since the command name in parentheses may hold spaces.
 */
function fromProc(pid: number): Seen | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ESRCH' ? { running: false, stamp: null } : null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
  const state = fields[0] ?? '';
  return { running: state !== 'Z' && state !== 'X', stamp: fields[19] ?? null };
}

/** macOS and other Unixes: ps's start time of the process (to the second); null where ps is not there. */
function fromPs(pid: number): Seen | null {
  const run = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 });
  if (run.error || run.status === null) return null;
  const stamp = run.stdout.trim();
  return stamp === '' ? { running: false, stamp: null } : { running: true, stamp };
}

function seen(pid: number): Seen | null {
  if (process.platform === 'linux') return fromProc(pid);
  if (process.platform === 'win32') return null;
  return fromPs(pid);
}

let self: ProcessHolder | null = null;

/** This process as a holder. */
export function thisProcess(): ProcessHolder {
  self ??= { pid: process.pid, stamp: seen(process.pid)?.stamp ?? null };
  return self;
}

/**
 * Whether the holder may still be running. False only when it surely is not: no process has its id, or the
 * one that has it started at another time (the id was reused), or it is a zombie. Anything unknown (a process
 * of another user, a system where start times cannot be read) counts as running: a claim is never taken from
 * a holder that might still pay.
 */
export function holderRunning(holder: ProcessHolder): boolean {
  // 0 and negative ids would signal process groups, and no process holds them.
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const now = seen(holder.pid);
  if (now === null) return true;
  if (!now.running) return false;
  return holder.stamp === null || now.stamp === null || now.stamp === holder.stamp;
}
