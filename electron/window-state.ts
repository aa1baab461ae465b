/**
 * The window's size and position between runs: a small JSON file in the user data folder, read through zod
 * (a hand-edited or truncated file means the defaults, never a crash) and fitted onto a display that exists
 * now, so a window saved on a monitor that was since unplugged still opens where a person can see it.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export const DEFAULT_SIZE = { width: 1280, height: 860 } as const;
export const MIN_SIZE = { width: 720, height: 520 } as const;

const stateSchema = z.object({
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
  maximized: z.boolean(),
});

export type WindowState = z.infer<typeof stateSchema>;

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPlacement {
  bounds: Area;
  maximized: boolean;
}

/** The saved state, or null when there is none or it does not parse. */
export function readWindowState(file: string): WindowState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Written beside and renamed over, so a crash mid-write leaves the previous state, not half a file. */
export function writeWindowState(file: string, state: WindowState): void {
  const checked = stateSchema.parse(state);
  const temp = `${file}.tmp`;
  writeFileSync(temp, `${JSON.stringify(checked)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

function overlap(a: Area, b: Area): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function centred(width: number, height: number, area: Area): Area {
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  };
}

/**
 * Where the window opens: the saved bounds moved and shrunk to lie wholly inside the work area (screen minus
 * taskbar and menu bar) of the display they overlap most, or centred on the primary display when they
 * overlap none or nothing was saved.
 */
export function placeWindow(
  saved: WindowState | null,
  primary: Area,
  workAreas: readonly Area[],
): WindowPlacement {
  const fit = (size: number, available: number, minimum: number) =>
    Math.max(Math.min(size, available), Math.min(minimum, available));
  if (!saved) {
    const width = fit(DEFAULT_SIZE.width, primary.width, MIN_SIZE.width);
    const height = fit(DEFAULT_SIZE.height, primary.height, MIN_SIZE.height);
    return { bounds: centred(width, height, primary), maximized: false };
  }
  let best: Area | null = null;
  let bestOverlap = 0;
  for (const area of workAreas) {
    const shared = overlap(saved, area);
    if (shared > bestOverlap) {
      best = area;
      bestOverlap = shared;
    }
  }
  const area = best ?? primary;
  const width = fit(saved.width, area.width, MIN_SIZE.width);
  const height = fit(saved.height, area.height, MIN_SIZE.height);
  if (!best) return { bounds: centred(width, height, area), maximized: saved.maximized };
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - height);
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}
