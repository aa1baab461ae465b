/** Resident memory of processes this bench started, read from /proc (Linux): Chromium's renderers. */
import { readdirSync, readFileSync } from 'node:fs';

function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null; // Gone meanwhile.
  }
}

/** Every live process below `root`, from each process's parent in /proc/<pid>/stat. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readProc(pid, 'stat');
    // The command name in parentheses may hold spaces: the parent is the second field after it.
    const after = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (after?.[1]) parents.set(pid, Number(after[1]));
  }
  const below = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents)
      if (!below.has(pid) && below.has(parent)) {
        below.add(pid);
        grew = true;
      }
  }
  below.delete(root);
  return [...below];
}

/** VmRSS of each Chromium renderer process started below this process, in bytes. */
export function rendererRssBytes(): number[] {
  if (process.platform !== 'linux') throw new Error('renderer RSS is read from /proc: Linux only');
  return descendants(process.pid)
    .filter((pid) => (readProc(pid, 'cmdline') ?? '').includes('--type=renderer'))
    .map((pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readProc(pid, 'status') ?? '')?.[1] ?? 0) * 1024);
}
