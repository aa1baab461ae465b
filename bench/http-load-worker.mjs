// The worker of bench/http-load.ts, in plain JavaScript so a worker thread runs it without a TypeScript loader.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

function get(agent, url, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () =>
        response.statusCode === 200
          ? resolve()
          : reject(new Error(`${url.href} answered ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
  });
}

async function generate(load) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: load.concurrency });
  const url = new URL(load.url);
  const deadline = Date.now() + load.durationMs;
  let completed = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: load.concurrency }, async () => {
      while (Date.now() < deadline) {
        await get(agent, url, load.headers);
        completed++;
      }
    }),
  );
  agent.destroy();
  return completed / (Number(process.hrtime.bigint() - start) / 1e9);
}

generate(workerData).then(
  (rps) => parentPort.postMessage({ rps }),
  (error) => parentPort.postMessage({ error: String(error) }),
);
