/**
 * Who holds a reservation, and whether it still may pay: the machine, the process (process-holder.ts tells a
 * live process from a dead one or a reused id), and within it the thread and the desk that took it. A desk
 * that closed (a window's core restarted in the same process, a test's second desk) holds nothing any more,
 * even though its process lives on.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { threadId } from 'node:worker_threads';
import { z } from 'zod';
import { holderRunning, thisProcess } from '../base/process-holder';

const holderSchema = z.object({
  host: z.string(),
  pid: z.number().int(),
  stamp: z.string().nullable(),
  thread: z.number().int(),
  /** The desk (one open Reservations store) that took it. */
  desk: z.string(),
});
export type Holder = z.infer<typeof holderSchema>;

/** The desks open in this thread: a holder of this thread is alive only while its desk is among them. */
const openDesks = new Set<string>();

export function openDesk(): string {
  const desk = randomUUID();
  openDesks.add(desk);
  return desk;
}

export function closeDesk(desk: string): void {
  openDesks.delete(desk);
}

export const holderFor = (desk: string): Holder => ({
  host: hostname(),
  ...thisProcess(),
  thread: threadId,
  desk,
});

export function parseHolder(json: string): Holder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * 'unknown' for a process on another machine, which cannot be asked (only the lease decides for it); another
 * thread of this process is taken as alive, since its desks cannot be seen from here.
 */
export function holderLiveness(holder: Holder): 'alive' | 'dead' | 'unknown' {
  if (holder.host !== hostname()) return 'unknown';
  if (!holderRunning(holder)) return 'dead';
  if (holder.pid !== process.pid || holder.thread !== threadId) return 'alive';
  return openDesks.has(holder.desk) ? 'alive' : 'dead';
}
