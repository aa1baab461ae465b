/** The driver's side of the service worker: start, SIGKILL, restart on the same store and port. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import Database from 'better-sqlite3';
import type { DemoChain } from '../../src/service/chain/demo-chain';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServiceSettings {
  chain: DemoChain;
  dataDir: string;
  unitPriceUsd: number;
  librarySecret: string;
  handles: number;
  minReports: number;
  maxReports: number;
}

const hello = z.object({ baseUrl: z.string().url() });

/** `PRAGMA integrity_check` of a SQLite file, read only: "ok" or what SQLite found. */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

export class ServiceProcess {
  baseUrl = '';
  kills = 0;
  /** Integrity checks of the store after a kill that did not say "ok". */
  readonly damaged: string[] = [];
  lastRestartError: string | null = null;
  private child: ChildProcess | null = null;
  private port = 0;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly settings: ServiceSettings) {}

  get storeFile(): string {
    return path.join(this.settings.dataDir, 'service.db');
  }

  async start(): Promise<void> {
    const { chain } = this.settings;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/chaos/service-worker.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: this.settings.dataDir,
        RPC_URL: chain.rpcUrl,
        CHAIN_ID: String(chain.chainId),
        ASSET: chain.asset,
        PAY_TO: chain.payTo,
        FACILITATOR_KEY: chain.facilitatorKey,
        PORT: String(this.port),
        UNIT_PRICE_USD: String(this.settings.unitPriceUsd),
        LIBRARY_SECRET: this.settings.librarySecret,
        HANDLES: String(this.settings.handles),
        MIN_REPORTS: String(this.settings.minReports),
        MAX_REPORTS: String(this.settings.maxReports),
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child = child;
    if (process.env['CHAOS_DEBUG']) {
      process.stderr.write(`service: spawned ${child.pid} on port ${this.port}\n`);
      child.on('exit', (code, signal) =>
        process.stderr.write(`service: ${child.pid} exit ${code} ${signal}\n`),
      );
      child.on('message', (m) => process.stderr.write(`service: ${child.pid} says ${JSON.stringify(m)}\n`));
    }
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-4000);
      if (process.env['CHAOS_DEBUG']) process.stderr.write(`service stderr: ${chunk.toString('utf8')}`);
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.once('message', (message: unknown) => resolve(hello.parse(message).baseUrl));
      child.once('exit', (code, signal) =>
        reject(new Error(`the service exited (${signal ?? code}) before it listened: ${errors}`)),
      );
    });
    this.baseUrl = baseUrl;
    this.port = Number(new URL(baseUrl).port);
  }

  /** SIGKILL, the store's integrity check, and a start on the same store and port. */
  async killAndRestart(): Promise<void> {
    const debug = (line: string) => {
      if (process.env['CHAOS_DEBUG']) process.stderr.write(`service: ${line}\n`);
    };
    debug('killing');
    this.child?.kill('SIGKILL');
    await this.exited;
    debug('killed');
    this.kills++;
    let verdict: string;
    try {
      verdict = integrityCheck(this.storeFile);
    } catch (error) {
      verdict = `could not be checked: ${String(error)}`;
    }
    debug(`integrity ${verdict}`);
    if (verdict !== 'ok') this.damaged.push(verdict);
    try {
      await this.start();
      debug(`restarted at ${this.baseUrl}`);
    } catch (error) {
      debug(`restart failed: ${String(error)}`);
      // The old port was taken in the meantime: any free one does, the proxies follow baseUrl.
      this.port = 0;
      this.lastRestartError = error instanceof Error ? error.message : String(error);
      await this.start();
    }
  }

  async stop(): Promise<void> {
    if (!this.child) return;
    this.child.send('stop');
    await this.exited;
    this.child = null;
  }
}
