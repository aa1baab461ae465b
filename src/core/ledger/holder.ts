/**
 * Which process holds a reservation, and whether it still lives. Several processes share one data folder (the
 * window, CLI runs, the MCP server); a reservation taken by one that was killed must not block the others for
 * good, and one taken by a live process must never be taken over. A holder names its machine, its process id
 * and, where the system tells it (Linux's /proc), the moment the process started, so a process id the system
 * gave to a new process after a kill is not mistaken for the holder.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';

export const holderSchema = z.object({
  host: z.string(),
  pid: z.number().int().positive(),
  /** The process's start in the system's own units (/proc/PID/stat field 22), or null where unknown. */
  started: z.string().nullable(),
});
export type Holder = z.infer<typeof holderSchema>;

/** The start time the system records for a process, as text; null where there is no /proc. */
function processStarted(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; the fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

let self: Holder | null = null;

/** This process as a holder. */
export function thisProcess(): Holder {
  self ??= { host: hostname(), pid: process.pid, started: processStarted('self') };
  return self;
}

export type Liveness = 'alive' | 'dead' | 'unknown';

/**
 * Whether the holder still runs: 'unknown' for another machine's process (the lease decides then), 'dead'
 * when its process id is gone or now names a process started at another moment.
 */
export function holderLiveness(holder: Holder): Liveness {
  const me = thisProcess();
  if (holder.host !== me.host) return 'unknown';
  if (holder.pid === me.pid) return holder.started === me.started ? 'alive' : 'dead';
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists and belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'dead';
  }
  if (holder.started === null) return 'alive';
  const started = processStarted(holder.pid);
  return started === null || started === holder.started ? 'alive' : 'dead';
}

/** Reads a holder kept as JSON; a row that does not parse names nobody alive. */
export function parseHolder(json: string): Holder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
