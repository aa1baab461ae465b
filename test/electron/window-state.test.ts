/** Where the window opens: saved bounds fitted onto the displays that exist now. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { placeWindow, readWindowState, writeWindowState, type Area } from '../../electron/window-state';

const laptop: Area = { x: 0, y: 25, width: 1440, height: 875 };
const monitor: Area = { x: 1440, y: 0, width: 2560, height: 1400 };

describe('placeWindow', () => {
  it('centres the default size on the primary display when nothing was saved', () => {
    expect(placeWindow(null, laptop, [laptop])).toEqual({
      bounds: { x: 80, y: 33, width: 1280, height: 860 },
      maximized: false,
    });
  });

  it('keeps saved bounds that lie on a display', () => {
    const saved = { x: 1600, y: 100, width: 1200, height: 800, maximized: true };
    expect(placeWindow(saved, laptop, [laptop, monitor])).toEqual({
      bounds: { x: 1600, y: 100, width: 1200, height: 800 },
      maximized: true,
    });
  });

  it('pulls a window hanging off the edge back inside the display it mostly covers', () => {
    const saved = { x: 3800, y: -50, width: 1200, height: 800, maximized: false };
    expect(placeWindow(saved, laptop, [laptop, monitor]).bounds).toEqual({
      x: 2800,
      y: 0,
      width: 1200,
      height: 800,
    });
  });

  it('moves a window from an unplugged monitor to the primary display, shrunk to fit', () => {
    const saved = { x: 1600, y: 100, width: 2000, height: 1200, maximized: false };
    expect(placeWindow(saved, laptop, [laptop]).bounds).toEqual(laptop);
  });
});

describe('the state file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'desk-window-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips and rejects what does not parse', () => {
    const file = path.join(dir, 'window-state.json');
    expect(readWindowState(file)).toBeNull();
    writeWindowState(file, { x: -1200, y: 10, width: 900, height: 700, maximized: false });
    expect(readWindowState(file)).toEqual({ x: -1200, y: 10, width: 900, height: 700, maximized: false });
    for (const bad of [
      '',
      '{',
      'null',
      '{"x":1.5,"y":0,"width":900,"height":700,"maximized":false}',
      '{"x":0,"y":0,"width":-5,"height":700,"maximized":false}',
    ]) {
      writeFileSync(file, bad);
      expect(readWindowState(file), bad).toBeNull();
    }
    expect(() =>
      writeWindowState(file, { x: 0, y: 0, width: Number.NaN, height: 1, maximized: false }),
    ).toThrow();
    expect(readFileSync(file, 'utf8')).not.toContain('NaN');
  });
});
