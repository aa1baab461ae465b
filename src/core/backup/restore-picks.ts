/**
 * Files a person picked to restore from, held under one-time tokens (decision 0038). Only a host names a path
 * (`library.pickRestoreFile` is host only: Electron's main process after its file dialog, the CLI for
 * --from); the window then restores by the token, or by the name of a copy in backups/, and so can never
 * make core read a path it chose.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DeskError } from '../base/errors';

/** How long a pick waits for its restore: a person confirming in a dialog, not a stored capability. */
export const PICK_TTL_MS = 10 * 60 * 1000;
const MAX_PICKS = 16;

export interface RestorePick {
  file: string;
  outsideBackups: boolean;
}

/** Whether `file` is a file directly inside `folder` (not the folder, not deeper, not through ..). */
export function isDirectlyIn(folder: string, file: string): boolean {
  return path.dirname(path.resolve(file)) === path.resolve(folder);
}

export class RestorePicks {
  private readonly picks = new Map<string, RestorePick & { until: number }>();

  constructor(
    private readonly backupsFolder: string,
    private readonly now: () => number,
  ) {}

  pick(file: string): RestorePick & { picked: string } {
    const resolved = path.resolve(file);
    const now = this.now();
    for (const [token, pick] of this.picks) if (pick.until <= now) this.picks.delete(token);
    // A window asking again and again cannot grow the map: the oldest pick goes.
    if (this.picks.size >= MAX_PICKS) this.picks.delete(this.picks.keys().next().value ?? '');
    const picked = randomBytes(16).toString('hex');
    const pick = { file: resolved, outsideBackups: !isDirectlyIn(this.backupsFolder, resolved) };
    this.picks.set(picked, { ...pick, until: now + PICK_TTL_MS });
    return { picked, ...pick };
  }

  /** The picked file, still held (a restore refused for want of a confirmation may ask again). */
  peek(picked: string): RestorePick {
    const pick = this.picks.get(picked);
    if (!pick || pick.until <= this.now())
      throw new DeskError(
        'backup_pick_unknown',
        'That file choice has expired or was already used; choose the backup again. Nothing was changed.',
        'usage',
      );
    return { file: pick.file, outsideBackups: pick.outsideBackups };
  }

  /** The picked file, once: a token is spent by the restore that goes ahead with it, whatever its outcome. */
  take(picked: string): RestorePick {
    const pick = this.peek(picked);
    this.picks.delete(picked);
    return pick;
  }
}
