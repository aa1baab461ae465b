/** The whole reference service: a local chain with the demo token, the seeded store, and the HTTP front. */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import { startDemoChain, type DemoChain } from './chain/demo-chain';
import { openServiceDb, type ServiceDb } from './store/db';
import { HandleStore } from './store/handles';
import { DEMO_SEED, seedStore, type SeedOptions } from './store/seed';
import { NonceBook } from './payment/nonces';
import { PaymentVerifier } from './payment/verify';
import { listenService } from './http/server';

export interface StackOptions {
  dataDir?: string;
  port?: number;
  seed?: Partial<
    Pick<SeedOptions, 'handles' | 'minReportsPerHandle' | 'maxReportsPerHandle' | 'seed' | 'compact'>
  > & {
    handles?: number;
  };
  unitPriceUsd?: number;
  librarySecret?: string;
  buyerCount?: number;
  log?: (line: string) => void;
}

export interface Stack {
  baseUrl: string;
  rpcUrl: string;
  anvilPid: number;
  chainId: number;
  network: `eip155:${number}`;
  asset: Address;
  payTo: Address;
  unitPriceUsd: number;
  buyerKeys: Hex[];
  librarySecret: string;
  dataDir: string;
  chain: DemoChain;
  stop(): Promise<void>;
}

export interface ServiceOnChain {
  baseUrl: string;
  db: ServiceDb;
  close(): Promise<void>;
}

/** Opens (and seeds, when new) the store in dataDir and serves it over an existing chain. */
export async function startService(
  chain: DemoChain,
  options: Required<Pick<StackOptions, 'dataDir' | 'unitPriceUsd' | 'librarySecret'>> & StackOptions,
): Promise<ServiceOnChain> {
  mkdirSync(options.dataDir, { recursive: true });
  const db = openServiceDb(path.join(options.dataDir, 'service.db'));
  try {
    const seeded = (db.prepare('SELECT COUNT(*) AS n FROM handles').get() as { n: number }).n > 0;
    if (!seeded) {
      const seed = { ...DEMO_SEED, ...options.seed };
      options.log?.(`seeding ${seed.handles} handles into ${options.dataDir}…`);
      const started = Date.now();
      const counts = seedStore(db, seed);
      options.log?.(
        `seeded ${counts.handles} handles, ${counts.reports} reports in ${Date.now() - started} ms`,
      );
    }
    const terms = {
      network: chain.network,
      chainId: chain.chainId,
      asset: chain.asset,
      payTo: chain.payTo,
      unitPriceUsd: options.unitPriceUsd,
    };
    const listening = await listenService(
      {
        store: new HandleStore(db),
        terms,
        verifier: new PaymentVerifier(terms, chain.clients, new NonceBook(db)),
        librarySecret: options.librarySecret,
        ...(options.log ? { log: options.log } : {}),
      },
      options.port ?? 0,
    );
    return {
      baseUrl: listening.baseUrl,
      db,
      close: async () => {
        await listening.close();
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'intel-desk-service-'));
  const unitPriceUsd = options.unitPriceUsd ?? 0.01;
  const librarySecret = options.librarySecret ?? randomBytes(24).toString('base64url');
  const chain = await startDemoChain({ buyerCount: options.buyerCount ?? 3 });
  let service: ServiceOnChain;
  try {
    service = await startService(chain, { ...options, dataDir, unitPriceUsd, librarySecret });
  } catch (error) {
    await chain.stop();
    throw error;
  }
  return {
    baseUrl: service.baseUrl,
    rpcUrl: chain.rpcUrl,
    anvilPid: chain.anvilPid,
    chainId: chain.chainId,
    network: chain.network,
    asset: chain.asset,
    payTo: chain.payTo,
    unitPriceUsd,
    buyerKeys: chain.buyerKeys,
    librarySecret,
    dataDir,
    chain,
    stop: async () => {
      await service.close();
      await chain.stop();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
