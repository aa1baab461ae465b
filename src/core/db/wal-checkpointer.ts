/**
 * WAL checkpoints on a thread of their own, for long runs of writes such as a team pull: a checkpoint copies
 * the WAL into the database file and fsyncs both, which on a busy disk held core's thread for 60–150 ms. A
 * second connection in a worker thread does it (PASSIVE: it never waits for, nor blocks, core's writers) while
 * core's thread goes on answering. When no worker can be started, it runs on the caller's connection as before.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { DeskDb } from './desk-db';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, workerData.options);
db.pragma('busy_timeout = 1000');
parentPort.on('message', () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, log: Number(row.log), checkpointed: Number(row.checkpointed) });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

const answerSchema = z.union([
  z.object({ ready: z.literal(true) }),
  z.object({ ok: z.literal(true), log: z.number(), checkpointed: z.number() }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);

export class WalCheckpointer {
  private worker: Worker | null = null;
  private ready: Promise<boolean> | null = null;
  private running: Promise<void> | null = null;
  /** Checkpoints run so far, and where (for tests and the bench). */
  readonly done = { offThread: 0, onThread: 0 };

  constructor(
    private readonly db: DeskDb,
    private readonly nativeBinding?: string,
  ) {}

  /**
   * Starts a checkpoint unless one is under way (the next request after it ends copies what came meanwhile).
   * Resolves when it ended; never rejects: a checkpoint that could not run leaves the WAL to the next one.
   */
  request(): Promise<void> {
    this.running ??= this.checkpoint().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Waits for a checkpoint under way, then stops the worker. */
  async close(): Promise<void> {
    await this.running;
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  private async checkpoint(): Promise<void> {
    if (await this.started()) {
      const answer = await this.ask();
      if (answer) {
        this.done.offThread++;
        return;
      }
    }
    // No thread of its own (or it failed): core's connection does it, as SQLite's automatic checkpoint would.
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      this.done.onThread++;
    } catch {
      // A busy or closed connection: the next checkpoint copies this one's pages too.
    }
  }

  private started(): Promise<boolean> {
    this.ready ??= new Promise<boolean>((resolve) => {
      try {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: {
            module: createRequire(import.meta.url).resolve('better-sqlite3'),
            file: this.db.name,
            options: {
              fileMustExist: true,
              ...(this.nativeBinding ? { nativeBinding: this.nativeBinding } : {}),
            },
          },
        });
        worker.unref();
        worker.once('message', (message: unknown) => resolve(answerSchema.safeParse(message).success));
        worker.once('error', () => resolve(false));
        worker.once('exit', () => resolve(false));
        this.worker = worker;
      } catch {
        resolve(false);
      }
    });
    return this.ready;
  }

  private ask(): Promise<boolean> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const onMessage = (message: unknown) => {
        cleanup();
        const answer = answerSchema.safeParse(message);
        resolve(answer.success && 'ok' in answer.data && answer.data.ok);
      };
      const onGone = () => {
        cleanup();
        this.worker = null;
        this.ready = Promise.resolve(false);
        resolve(false);
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onGone);
        worker.off('exit', onGone);
      };
      worker.on('message', onMessage);
      worker.once('error', onGone);
      worker.once('exit', onGone);
      worker.postMessage('checkpoint');
    });
  }
}
