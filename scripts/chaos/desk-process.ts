/** The driver's side of a desk worker: starts it, sends it commands, and kills and restarts it. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { workerReplySchema, type WorkerCommand } from './protocol';

const root = path.resolve(import.meta.dirname, '../..');

export interface DeskSettings {
  /** The bundled worker (bundle.ts). */
  workerFile: string;
  dataDir: string;
  serviceUrl: string;
  rpcUrl: string;
  demoAsset: string;
  passphrase: string;
  timeoutMs: number;
  chainTimeoutMs: number;
}

export type CommandResult =
  { kind: 'ok'; result: unknown } | { kind: 'refused'; code: string; message: string } | { kind: 'killed' };

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
export type CommandInput = Distribute<WorkerCommand>;

/** A desk worker that ended without being told to: a crash of the desk, not a fault the driver drew. */
export class DeskCrashed extends Error {}

export class DeskProcess {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, (result: CommandResult) => void>();
  private exited: Promise<void> = Promise.resolve();
  private stderrTail = '';

  constructor(private readonly settings: DeskSettings) {}

  /** Starts the desk (which reconciles what a kill left open) and waits until it can take commands. */
  async start(skewMs = 0): Promise<void> {
    const child = spawn(process.execPath, [this.settings.workerFile], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: this.settings.dataDir,
        SERVICE_URL: this.settings.serviceUrl,
        RPC_URL: this.settings.rpcUrl,
        DEMO_ASSET: this.settings.demoAsset,
        PASSPHRASE: this.settings.passphrase,
        TIMEOUT_MS: String(this.settings.timeoutMs),
        CHAIN_TIMEOUT_MS: String(this.settings.chainTimeoutMs),
        SKEW_MS: String(skewMs),
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child = child;
    this.stderrTail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4000);
    });
    let ready!: () => void;
    let failed!: (error: Error) => void;
    const started = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    child.on('message', (message: unknown) => {
      const reply = workerReplySchema.parse(message);
      if ('ready' in reply) return ready();
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      resolve?.(
        reply.ok
          ? { kind: 'ok', result: reply.result }
          : { kind: 'refused', code: reply.code, message: reply.message },
      );
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        for (const [id, settle] of this.waiting) {
          this.waiting.delete(id);
          settle({ kind: 'killed' });
        }
        failed(
          new DeskCrashed(`the desk exited (${signal ?? code}) before it was ready: ${this.stderrTail}`),
        );
        resolve();
      });
    });
    await started;
  }

  get running(): boolean {
    return this.child !== null;
  }

  get lastErrors(): string {
    return this.stderrTail;
  }

  async send(command: CommandInput): Promise<CommandResult> {
    const child = this.child;
    if (!child) throw new DeskCrashed(`the desk is not running: ${this.stderrTail}`);
    const id = this.nextId++;
    const result = new Promise<CommandResult>((resolve) => this.waiting.set(id, resolve));
    child.send({ ...command, id });
    return result;
  }

  /** Waits for a desk that killed itself (or was killed) to be gone. */
  async gone(): Promise<void> {
    await this.exited;
  }

  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (!this.child) return;
    const closing = this.send({ op: 'close' });
    await closing;
    await this.exited;
  }
}
