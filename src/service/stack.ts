/** The whole reference service: a local chain with the demo token, the seeded store, and the HTTP front. */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import { startDemoChain, type DemoChain, type Mining } from './chain/demo-chain';
import { openServiceDb, type ServiceDb } from './store/db';
import { HandleStore } from './store/handles';
import { DEMO_SEED, seedStore, type SeedOptions } from './store/seed';
import { NonceBook } from './payment/nonces';
import { PaidAnswers } from './payment/paid-answers';
import { SettledPurchases } from './payment/settled-purchases';
import { SignIn } from './payment/sign-in';
import { PaymentVerifier } from './payment/verify';
import { unitPriceBaseUnits } from './payment/challenge';
import { listenService } from './http/server';
import { parsePublicUrl } from './public-url';
import { errorMessage, Teardown } from './teardown';

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
  /** 'interval' (default): a block every 2 s like Base; 'auto': a block per transaction, idle in between. */
  mining?: Mining;
  /**
   * The origin the desk reaches the service at behind a gateway (public-url.ts): every challenge names it.
   * Absent, the address it listens on.
   */
  publicUrl?: string;
  /** Purchases per page of the restore route (default 500): small in tests that page. */
  restorePageLimit?: number;
  /** A chain kept between runs (the demo's): its state file, and the token an earlier run deployed there. */
  chainState?: { statePath: string; asset?: Address };
  log?: (line: string) => void;
}

export interface Stack {
  /** Where the service listens. */
  baseUrl: string;
  /** The origin its challenges name: the configured public URL, else baseUrl. */
  publicUrl: string;
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
  /** The service's HTTP port (in baseUrl). */
  port: number;
  /** Closes the service's HTTP front (the chain and the store stay), as a service that went away. */
  stopService(): Promise<void>;
  /** Serves the same store again at the same URL after stopService. */
  restartService(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServiceOnChain {
  baseUrl: string;
  publicUrl: string;
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
        paidAnswers: new PaidAnswers(db),
        restore: {
          settled: new SettledPurchases(db),
          signIn: new SignIn(db, chain.network, (args) => chain.clients.publicClient.verifyMessage(args)),
          pageLimit: options.restorePageLimit,
        },
        librarySecret: options.librarySecret,
        publicUrl:
          options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl, 'publicUrl'),
        ...(options.log ? { log: options.log } : {}),
      },
      options.port ?? 0,
    );
    return {
      baseUrl: listening.baseUrl,
      publicUrl: listening.publicUrl,
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

/**
 * Starts a chain, the store and the HTTP front. A start that fails at any step undoes what it had made (the
 * service, anvil, a temporary data dir; a data dir the caller named is the caller's and stays) and rejects with
 * an error naming the step, the cause attached.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const teardown = new Teardown();
  let step = 'checking the options';
  try {
    const unitPriceUsd = options.unitPriceUsd ?? 0.01;
    // Refused here rather than at the first challenge: every price is a whole number of base units.
    unitPriceBaseUnits(unitPriceUsd);
    if (options.publicUrl !== undefined) parsePublicUrl(options.publicUrl, 'publicUrl');

    step = 'creating the data dir';
    const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'intel-desk-service-'));
    if (options.dataDir === undefined)
      teardown.add(`removing ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
    const librarySecret = options.librarySecret ?? randomBytes(24).toString('base64url');

    step = 'starting the local chain';
    const chain = await startDemoChain({
      buyerCount: options.buyerCount ?? 3,
      ...(options.mining ? { mining: options.mining } : {}),
      ...(options.chainState ?? {}),
    });
    teardown.add(`stopping anvil (pid ${chain.anvilPid})`, chain.stop);

    step = `starting the service in ${dataDir}`;
    const serviceOptions = { ...options, dataDir, unitPriceUsd, librarySecret };
    let service: ServiceOnChain | null = await startService(chain, serviceOptions);
    const port = Number(new URL(service.baseUrl).port);
    teardown.add('closing the service', async () => {
      await service?.close();
      service = null;
    });

    return {
      baseUrl: service.baseUrl,
      publicUrl: service.publicUrl,
      stopService: async () => {
        await service?.close();
        service = null;
      },
      restartService: async () => {
        if (service === null) service = await startService(chain, { ...serviceOptions, port });
      },
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
      port,
      stop: async () => {
        const failures = await teardown.run();
        if (failures.length > 0) throw new Error(`stopping the service stack failed: ${failures.join('; ')}`);
      },
    };
  } catch (error) {
    const failures = await teardown.run();
    const undone = failures.length > 0 ? ` (cleaning up also failed: ${failures.join('; ')})` : '';
    throw new Error(`the service stack did not start: ${step} failed: ${errorMessage(error)}${undone}`, {
      cause: error,
    });
  }
}
