/**
 * The WAL checkpoints a long run of writes (a team pull) asks for, on a thread of their own: the pages reach
 * the database file while the caller's thread goes on; and where no thread can open the database (a broken
 * addon path), the caller's connection does it, so the WAL never grows without end.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDeskDb } from '../../src/core/db/open';
import { pauseAutoCheckpoint } from '../../src/core/db/relaxed-durability';
import { WalCheckpointer } from '../../src/core/db/wal-checkpointer';
import { tempDir } from './helpers';

const folders: { remove(): void }[] = [];
afterEach(() => folders.splice(0).forEach((folder) => folder.remove()));

/** A desk.db whose WAL holds about 4 MB no checkpoint has copied yet. */
function withUncopiedWal() {
  const folder = tempDir('desk-checkpoint-');
  folders.push(folder);
  const file = path.join(folder.dir, 'desk.db');
  const { db } = openDeskDb(file, () => new Date());
  const resume = pauseAutoCheckpoint(db);
  db.exec('CREATE TABLE filler (body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO filler (body) VALUES (?)');
  for (let i = 0; i < 64; i++) insert.run('x'.repeat(64 * 1024));
  return { db, file, resume, size: () => statSync(file).size };
}

describe('WAL checkpoints for a long run of writes', () => {
  it('copies the WAL into the database file on a thread of its own', async () => {
    const { db, resume, size } = withUncopiedWal();
    const before = size();
    const checkpointer = new WalCheckpointer(db);
    await checkpointer.request();
    await checkpointer.close();
    expect(checkpointer.done).toEqual({ offThread: 1, onThread: 0 });
    expect(size()).toBeGreaterThan(before + 3 * 1024 * 1024);
    resume();
    db.close();
  });

  it("asks once while one is under way, and checkpoints on the caller's connection when no thread can open the file", async () => {
    const { db, resume, size } = withUncopiedWal();
    const before = size();
    const checkpointer = new WalCheckpointer(db, path.join(tempDir('desk-no-addon-').dir, 'missing.node'));
    const [first, second] = [checkpointer.request(), checkpointer.request()];
    expect(first).toBe(second);
    await first;
    await checkpointer.close();
    expect(checkpointer.done).toEqual({ offThread: 0, onThread: 1 });
    expect(size()).toBeGreaterThan(before + 3 * 1024 * 1024);
    resume();
    db.close();
  });
});
