/** Child side of desk-child.ts: starts the desk host, answers memory questions, closes when told or orphaned. */
import { startDeskHost } from '../src/host/desk-host';
import type { DeskProcessOptions, FromDesk, ToDesk } from './desk-child';

const send = (message: FromDesk) => process.send?.(message);

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as DeskProcessOptions;
  const desk = await startDeskHost({
    core: {
      dataDir: options.dataDir,
      serviceUrl: options.serviceUrl,
      rpcUrl: options.rpcUrl,
      demo: true,
      demoAsset: options.demoAsset,
    },
    rendererDir: options.rendererDir,
  });
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await desk.close();
    process.exit(0);
  };
  process.on('message', (message: ToDesk) => {
    if (message.kind === 'memory') {
      globalThis.gc?.();
      const usage = process.memoryUsage();
      send({
        kind: 'memory',
        rss: usage.rss,
        heapUsed: usage.heapUsed,
        maxRss: process.resourceUsage().maxRSS * 1024,
      });
    } else void close();
  });
  // The bench died or forgot us: never outlive it.
  process.on('disconnect', () => void close());
  send({ kind: 'ready', url: desk.host.url });
}

main().catch((error: unknown) => {
  send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
  process.disconnect?.();
});
