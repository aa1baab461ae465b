/**
 * Backups from the command line, against a real service and chain: a purchase leaves a copy in backups/,
 * `backup` takes one, bytes corrupted inside desk.db are replaced at the next start by the newest good copy
 * (the damaged file kept aside, the count of reports that came back said), and `restore --from FILE` puts an
 * older copy back while keeping the library as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { confirmOutside } from '../../src/cli/commands-backup';
import { startStack, type Stack } from '../../src/service/stack';
import { tempDir } from '../core/helpers';
import { damageReportsPage } from '../damage-library';
import { runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let handles: string[];

function cli(args: string[]): Promise<Run> {
  return runCli(args, stackEnv(stack, data.dir));
}
const backupsDir = () => path.join(data.dir, 'backups');
const libraryCopies = () =>
  readdirSync(backupsDir())
    .filter((name) => /^desk-.*\.db$/.test(name))
    .sort();

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 } });
  data = tempDir('desk-cli-backup-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk backup and restore', () => {
  it('backs up after a purchase and on request, owner-only', async () => {
    const bought = await cli(['buy', handles[0]!, '--all', '--yes', '--key-file', keyFile]);
    expect(bought.code, bought.stderr).toBe(0);
    expect(libraryCopies()).toEqual([expect.stringMatching(/^desk-\d{8}T\d{9}Z-purchase\.db$/)]);
    expect(statSync(backupsDir()).mode & 0o777).toBe(0o700);

    const taken = await cli(['backup', '--json']);
    expect(taken.code, taken.stderr).toBe(0);
    const result = JSON.parse(taken.stdout) as { file: string; bytes: number; kept: number };
    expect(result.file).toMatch(/-manual\.db$/);
    expect(result.kept).toBe(2);
    for (const name of libraryCopies())
      expect(statSync(path.join(backupsDir(), name)).mode & 0o777).toBe(0o600);
  });

  it('replaces a corrupted desk.db at start with the newest good backup and says what came back', async () => {
    const file = path.join(data.dir, 'desk.db');
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(3996, 0x5a), 0, 3996, 100);
    closeSync(fd);
    // The newest copy is damaged too: the one before it is restored.
    const newest = path.join(backupsDir(), libraryCopies().at(-1)!);
    const damaged = openSync(newest, 'r+');
    writeSync(damaged, Buffer.alloc(3996, 0x5a), 0, 3996, 100);
    closeSync(damaged);

    const library = await cli(['library', '--json']);
    expect(library.code, library.stderr).toBe(0);
    expect(library.stderr).toMatch(/unusable .*moved to .*desk\.db\.corrupt-/);
    expect(library.stderr).toMatch(/-purchase\.db, taken .*\) was restored: 4 reports came back/);
    expect((JSON.parse(library.stdout) as unknown[]).length).toBe(4);
    const aside = readdirSync(data.dir).filter((name) => name.startsWith('desk.db.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(statSync(path.join(data.dir, aside[0]!)).size).toBeGreaterThan(0);
    // The next start finds a healthy library and says nothing.
    const again = await cli(['library', '--json']);
    expect(again.stderr).not.toMatch(/unusable/);
  });

  it('restores an older backup with --from, keeping the library as it was', async () => {
    const before = path.join(
      backupsDir(),
      libraryCopies().find((name) => name.endsWith('-purchase.db'))!,
    );
    const bought = await cli(['buy', handles[1]!, '--all', '--yes', '--key-file', keyFile]);
    expect(bought.code, bought.stderr).toBe(0);
    expect((JSON.parse((await cli(['library', '--json'])).stdout) as unknown[]).length).toBe(8);

    const bad = await cli(['restore', '--from', keyFile, '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot be restored: .*Nothing was changed/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    const restored = await cli(['restore', '--from', before, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    const answer = JSON.parse(restored.stdout) as { reports: number; safetyCopy: { file: string } };
    expect(answer.reports).toBe(4);
    expect(existsSync(answer.safetyCopy.file)).toBe(true);
    expect((JSON.parse((await cli(['library', '--json'])).stdout) as unknown[]).length).toBe(4);
    // The library as it was before the restore comes back the same way.
    const undo = await cli(['restore', '--from', answer.safetyCopy.file, '--json']);
    expect(JSON.parse(undo.stdout)).toMatchObject({ reports: 8 });
  });

  it('restores the oldest backup as the README shows, never rotating it away (issue 44)', async () => {
    // The safety copies are of the kind `restore`: restoring the oldest of them again and again makes each
    // new one push past the count kept, which once removed the very file being restored.
    for (let round = 0; round < 3; round++) {
      const oldest = path.join(
        backupsDir(),
        libraryCopies().find((name) => name.endsWith('-restore.db'))!,
      );
      const restored = await cli(['restore', '--from', oldest]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/^Restored the library from .*: \d+ reports\./);
      expect(restored.stdout).toContain(
        "This desk's settings, spending caps, payee pins and chain RPC were kept, not taken from the backup",
      );
      expect(existsSync(oldest)).toBe(true);
    }
  });

  it('asks before restoring a file from outside backups/, and refuses a damaged one (issue 41)', async () => {
    const elsewhere = path.join(data.dir, 'from-elsewhere.db');
    copyFileSync(path.join(backupsDir(), libraryCopies().at(-1)!), elsewhere);
    const unasked = await cli(['restore', '--from', elsewhere]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toMatch(
      /outside the backups folder .*add --yes to restore from it\. Nothing was changed/,
    );
    const asked = await cli(['restore', '--from', elsewhere, '--yes']);
    expect(asked.code, asked.stderr).toBe(0);

    // A real SQLite library with one page of its reports overwritten, as a failing disk leaves it.
    damageReportsPage(elsewhere, 'middle');
    const before = (JSON.parse((await cli(['library', '--json'])).stdout) as unknown[]).length;
    const damaged = await cli(['restore', '--from', elsewhere, '--yes']);
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/cannot be restored: integrity check failed.*Nothing was changed/);
    expect(damaged.stderr).not.toMatch(/\n\s+at /);
    expect((JSON.parse((await cli(['library', '--json'])).stdout) as unknown[]).length).toBe(before);
  });
});

describe('restoring a file from outside backups/ at a terminal', () => {
  const terminal = (typed: string) => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    input.end(typed);
    return { input, output: new PassThrough() };
  };

  it('goes ahead on a yes, and changes nothing on anything else or without a terminal', async () => {
    await expect(confirmOutside('/x/a.db', '/d/backups', false, terminal('y\n'))).resolves.toBeUndefined();
    await expect(confirmOutside('/x/a.db', '/d/backups', false, terminal('yes\n'))).resolves.toBeUndefined();
    await expect(confirmOutside('/x/a.db', '/d/backups', false, terminal('\n'))).rejects.toThrow(
      'Not restored; nothing was changed.',
    );
    await expect(
      confirmOutside('/x/a.db', '/d/backups', false, { input: new PassThrough(), output: new PassThrough() }),
    ).rejects.toThrow(/add --yes to restore from it\. Nothing was changed/);
    await expect(
      confirmOutside('/x/a.db', '/d/backups', true, { input: new PassThrough(), output: new PassThrough() }),
    ).resolves.toBeUndefined();
  });
});
