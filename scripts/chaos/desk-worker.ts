/**
 * One desk in a process of its own, driven over IPC by the chaos driver through core's RPC handlers (the
 * contract the app and the CLI use), so the driver can kill it with SIGKILL at any purchase step and start it
 * again on the same data folder, as a power cut or a crash would.
 */
import { z } from 'zod';
import { createDeskCore, DeskError, type PurchaseStep } from '../../src/core';
import { workerCommandSchema, type WorkerCommand } from './protocol';

const env = z
  .object({
    DATA_DIR: z.string().min(1),
    SERVICE_URL: z.string().url(),
    RPC_URL: z.string().url(),
    DEMO_ASSET: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    PASSPHRASE: z.string().min(1),
    TIMEOUT_MS: z.coerce.number().int().positive(),
    CHAIN_TIMEOUT_MS: z.coerce.number().int().positive(),
    SKEW_MS: z.coerce.number().int(),
  })
  .parse(process.env);

let skewMs = env.SKEW_MS;
let killAt: PurchaseStep | null = null;

const desk = await createDeskCore({
  dataDir: env.DATA_DIR,
  serviceUrl: env.SERVICE_URL,
  rpcUrl: env.RPC_URL,
  demo: true,
  demoAsset: env.DEMO_ASSET as `0x${string}`,
  attempts: 1,
  timeoutMs: env.TIMEOUT_MS,
  chainTimeoutMs: env.CHAIN_TIMEOUT_MS,
  walletKdfCost: 'fast-insecure-for-tests',
  now: () => Date.now() + skewMs,
  // Follows the purchase's steps as the window does. No cleanup, no flush beyond what SQLite already made
  // durable: what a power cut leaves.
  onEvent: (event) => {
    if (event.type === 'purchase.step' && event.step === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
const status = await desk.handlers['wallet.status']({});
if (status.address !== null) await desk.handlers['wallet.unlock']({ passphrase: env.PASSPHRASE });

async function run(command: WorkerCommand): Promise<unknown> {
  switch (command.op) {
    case 'buy': {
      skewMs = command.skewMs;
      killAt = command.killAt as PurchaseStep | null;
      try {
        const quote = await desk.handlers['quote.get']({
          handle: command.handle,
          selection: command.selection,
        });
        const outcome = await desk.handlers['purchase.start']({
          quoteId: quote.quoteId,
          confirmedAmount: quote.amount,
        });
        return { status: outcome.status, code: 'code' in outcome ? outcome.code : null };
      } finally {
        killAt = null;
      }
    }
    case 'reconcile': {
      skewMs = command.skewMs;
      const view = await desk.handlers['purchases.reconcile']({});
      return { open: view.purchases.filter((p) => p.state === 'in_doubt').length };
    }
    case 'useBuyer':
      await desk.handlers['wallet.import']({
        privateKey: command.key,
        passphrase: env.PASSPHRASE,
        replace: true,
      });
      return {};
    case 'caps':
      await desk.handlers['settings.update']({
        perPurchaseCapUnits: command.perPurchaseCapUnits,
        dailyCapUnits: command.dailyCapUnits,
        // Raising a cap over a stored keystore needs its passphrase (decision 0022); lowering ignores it.
        passphrase: env.PASSPHRASE,
      });
      return {};
    case 'teamCreate': {
      const created = await desk.handlers['team.create']({
        url: command.url,
        name: command.name,
        dailyCap: command.dailyCapUnits,
        perPurchaseCap: command.perPurchaseCapUnits,
        timeZone: 'UTC',
        overCap: 'refuse',
      });
      return { groupRole: created.groupRole };
    }
    case 'teamJoin':
      await desk.handlers['team.join']({ url: command.url });
      return {};
    case 'teamSync': {
      const synced = await desk.handlers['team.sync']({});
      return { told: synced.told, published: synced.published, freed: synced.freed, pulled: synced.pulled };
    }
    case 'close':
      await desk.close();
      return {};
  }
}

process.on('message', (message: unknown) => {
  const command = workerCommandSchema.parse(message);
  run(command).then(
    (result) => {
      // A closed desk leaves at once: kept-alive sockets to the proxies must not hold the process.
      process.send?.({ id: command.id, ok: true, result }, () => {
        if (command.op === 'close') process.exit(0);
      });
    },
    (error: unknown) => {
      const code = error instanceof DeskError ? error.code : 'crash';
      const message = error instanceof Error ? error.message : String(error);
      process.send?.({ id: command.id, ok: false, code, message });
    },
  );
});
process.send?.({ ready: true });
