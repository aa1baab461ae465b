/**
 * A full disk, for real: the data folder lives on a size-limited tmpfs (this test mounts one; it is skipped,
 * saying why, where mounting is not allowed). Before signing, a folder short of room refuses the purchase:
 * no ledger row, no money moved. A disk that fills after the payment keeps the paid answer, holds the
 * purchase in doubt, survives a restart while still full, and stores the reports once there is room.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statfsSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, PurchaseStep } from '../../src/core';
import {
  balanceOf,
  buyAll,
  deskFor,
  deskWithWallet,
  failure,
  firstHandle,
  ledgerRows,
  tempDir,
  onPurchaseSteps,
} from './helpers';

const MB = 1024 * 1024;
let stack: Stack;
let mount: ReturnType<typeof tempDir>;
let mounted = false;
let handle: string;
const whyNot: string[] = [];

function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

/** Writes a filler file until `leave` bytes are free (0: until the file system refuses a byte). */
function fill(dir: string, leave: number): string {
  const file = path.join(dir, `filler-${Date.now()}-${Math.random().toString(16).slice(2)}`);
  const fd = openSync(file, 'w');
  try {
    for (const chunk of [MB, 64 * 1024, 4096, 512, 1]) {
      const buffer = Buffer.alloc(chunk, 0x5a);
      while (freeBytes(dir) - chunk >= leave) {
        try {
          writeSync(fd, buffer);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

beforeAll(async () => {
  mount = tempDir('desk-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,mode=0700', 'tmpfs', mount.dir], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    whyNot.push(`cannot mount a tmpfs here: ${(error as Error).message.split('\n')[0]}`);
    return;
  }
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 5, maxReportsPerHandle: 5 },
    buyerCount: 2,
  });
  ({ handle } = await firstHandle(stack));
});
afterAll(async () => {
  await stack?.stop();
  if (mounted) execFileSync('umount', ['-l', mount.dir]);
  mount?.remove();
});

describe('a full disk', () => {
  it('refuses before signing when the data folder has no room for the answer', async (context) => {
    if (!mounted) return context.skip(whyNot.join(' '));
    const dataDir = path.join(mount.dir, 'short');
    mkdirSync(dataDir);
    const { desk, address } = await deskWithWallet(stack, dataDir, 0);
    try {
      // Room for five small reports, but not for them with the margin the check keeps.
      const filler = fill(mount.dir, 8 * MB);
      const before = await balanceOf(stack, address);
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
      const refused = await failure(
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      );
      expect(refused.code).toBe('disk_full');
      expect(refused.message).toMatch(/Not enough free disk space.*MB free.*nothing was signed/);
      expect(ledgerRows(dataDir)).toEqual([]);
      expect(await balanceOf(stack, address)).toBe(before);
      rmSync(filler);
    } finally {
      await desk.close();
    }
  });

  it('keeps a paid answer the disk had no room for, and stores it once there is room', async (context) => {
    if (!mounted) return context.skip(whyNot.join(' '));
    const dataDir = path.join(mount.dir, 'fills');
    mkdirSync(dataDir);
    let filler: string | null = null;
    const followStep = (_id: string, step: PurchaseStep) => {
      if (step !== 'response_received') return;
      // The answer is in the ledger; now the disk fills before the reports are written. The WAL is emptied
      // first, so SQLite has no space it wrote before to reuse.
      const other = new Database(path.join(dataDir, 'desk.db'));
      other.pragma('wal_checkpoint(TRUNCATE)');
      other.close();
      filler = fill(mount.dir, 0);
    };
    const { desk, address } = await deskWithWallet(stack, dataDir, 1, {
      onEvent: onPurchaseSteps(followStep),
    });
    let reopened: DeskCore | null = null;
    try {
      const before = await balanceOf(stack, address);
      const { quote, outcome } = await buyAll(desk, handle);
      expect(outcome.status).toBe('in_doubt');
      expect(outcome).toMatchObject({ message: expect.stringMatching(/disk is full.*answer is kept/) });
      expect(await balanceOf(stack, address)).toBe(before - BigInt(quote.amount));
      await desk.close();

      // Started again while the disk is still full: the desk opens, the purchase waits, the answer is kept.
      reopened = await deskFor(stack, dataDir);
      // A disk with not a byte free cannot take even the in-doubt mark: the row then stays "sent" with its
      // answer, which reconciliation delivers the same way; it is never failed or dropped.
      const [row] = ledgerRows(dataDir);
      expect(['in_doubt', 'sent']).toContain(row!.state);
      expect(row!.response_json).not.toBeNull();
      expect(JSON.parse(row!.response_json!)).toMatchObject({ reports: expect.any(Array) });
      expect((await reopened.handlers['library.list']({})).items).toEqual([]);

      rmSync(filler!);
      await reopened.handlers['purchases.reconcile']({});
      expect(ledgerRows(dataDir)[0]).toMatchObject({ state: 'completed' });
      expect((await reopened.handlers['library.list']({})).items).toHaveLength(5);
      // One payment on chain, never a second.
      expect(await balanceOf(stack, address)).toBe(before - BigInt(quote.amount));
      expect(readFileSync(path.join(dataDir, 'desk.db')).length).toBeGreaterThan(0);
    } finally {
      if (filler) rmSync(filler, { force: true });
      await reopened?.close();
    }
  });
});
