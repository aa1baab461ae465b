/**
 * A load generator in its own thread, so the server under test has the main thread to itself: `concurrency`
 * keep-alive connections send GET `url` back to back for `durationMs`; posts completed requests per second.
 */
import { Worker } from 'node:worker_threads';

export interface Load {
  url: string;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
}

/** Requests per second that `url` answers, measured from a worker thread. */
export function loadFromWorker(load: Load): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./http-load-worker.mjs', import.meta.url), { workerData: load });
    worker.once('message', (message: { rps?: number; error?: string }) => {
      void worker.terminate();
      if (message.rps !== undefined) resolve(message.rps);
      else reject(new Error(message.error ?? 'the load generator failed'));
    });
    worker.once('error', reject);
  });
}
