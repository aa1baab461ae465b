/**
 * INTEL_DESK_CLOCK_OFFSET_MS, the testing aid that moves the desk's clock in the CLI's process and the web
 * host's worker: anything but a whole number of milliseconds within ±300000 is refused (the CLI exits 2,
 * naming the variable and the range), and a good value moves core's clock by that much.
 */
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import {
  CLOCK_OFFSET_ENV,
  MAX_CLOCK_OFFSET_MS,
  offsetClock,
  parseClockOffset,
} from '../../src/core/payments/clock-offset';
import { MAX_VALIDITY_SECONDS } from '../../src/core/payments/quote';
import { MIN_REMAINING_SECONDS } from '../../src/core/payments/chain-clock';
import { startDeskHost } from '../../src/host/desk-host';
import { tempDir } from '../core/helpers';
import { runCli } from '../cli/run-cli';

const dirs: ReturnType<typeof tempDir>[] = [];
afterAll(() => dirs.forEach((dir) => dir.remove()));
const dataDir = () => {
  const dir = tempDir('desk-clock-offset-');
  dirs.push(dir);
  return dir.dir;
};

const BAD = ['abc', '1.5', '1e3', '0x10', ' 5', '300001', '-300001', '99999999', '+', '--5', 'Infinity'];

describe('INTEL_DESK_CLOCK_OFFSET_MS', () => {
  it('takes a whole number of milliseconds within ±300000; unset or empty is no offset', () => {
    expect(CLOCK_OFFSET_ENV).toBe('INTEL_DESK_CLOCK_OFFSET_MS');
    expect(parseClockOffset(undefined)).toEqual({ ok: true, offsetMs: 0 });
    expect(parseClockOffset('')).toEqual({ ok: true, offsetMs: 0 });
    for (const [raw, offsetMs] of [
      ['0', 0],
      ['90000', 90_000],
      ['+1500', 1500],
      ['-120000', -120_000],
      ['300000', 300_000],
      ['-300000', -300_000],
    ] as const) {
      expect(parseClockOffset(raw)).toEqual({ ok: true, offsetMs });
    }
  });

  it('refuses anything else, naming the variable and the range', () => {
    for (const raw of BAD) {
      const parsed = parseClockOffset(raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) {
        expect(parsed.message).toContain('INTEL_DESK_CLOCK_OFFSET_MS');
        expect(parsed.message).toContain('from -300000 to 300000');
      }
    }
  });

  it('is bounded by the widest payment window, which a settlement needs a minute of', () => {
    expect(MAX_CLOCK_OFFSET_MS).toBe(MAX_VALIDITY_SECONDS * 1000);
    // What a full window absorbs (chain-clock.ts) is about four minutes: the bound never goes far past it.
    expect(MAX_CLOCK_OFFSET_MS - (MAX_VALIDITY_SECONDS - MIN_REMAINING_SECONDS) * 1000).toBe(60_000);
  });

  it('moves the clock by the offset', () => {
    const before = Date.now();
    const shifted = offsetClock(120_000)();
    const after = Date.now();
    expect(shifted).toBeGreaterThanOrEqual(before + 120_000);
    expect(shifted).toBeLessThanOrEqual(after + 120_000);
    expect(Math.abs(offsetClock(0)() - Date.now())).toBeLessThan(1000);
  });

  it('the CLI exits 2 on a bad value, before opening the desk', async () => {
    for (const raw of ['soon', '300001']) {
      const run = await runCli(['spend'], {
        INTEL_DESK_DATA_DIR: dataDir(),
        INTEL_DESK_SERVICE_URL: undefined,
        INTEL_DESK_RPC_URL: undefined,
        [CLOCK_OFFSET_ENV]: raw,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('INTEL_DESK_CLOCK_OFFSET_MS');
      expect(run.stderr).toContain('from -300000 to 300000');
    }
  });

  it('the web host refuses a bad value before starting core, and its worker keeps a good one', async () => {
    const dir = dataDir();
    const rendererDir = path.join(dir, 'no-renderer');
    await expect(
      startDeskHost({ core: { dataDir: dir }, rendererDir, env: { [CLOCK_OFFSET_ENV]: '-400000' } }),
    ).rejects.toMatchObject({ code: 'clock_offset_invalid', kind: 'usage' });
    await expect(
      startDeskHost({ core: { dataDir: dir, clockOffsetMs: 0.5 }, rendererDir }),
    ).rejects.toMatchObject({ code: 'clock_offset_invalid', kind: 'usage' });

    const desk = await startDeskHost({
      core: { dataDir: dir },
      rendererDir,
      env: { [CLOCK_OFFSET_ENV]: '240000' },
    });
    try {
      const before = Date.now();
      const saved = await desk.core.handlers['searches.save']({ name: 'clock', query: 'clock' });
      const after = Date.now();
      const at = Date.parse(saved.createdAt);
      expect(at).toBeGreaterThanOrEqual(before + 240_000);
      expect(at).toBeLessThanOrEqual(after + 240_000);
    } finally {
      await desk.close();
    }
  });
});
