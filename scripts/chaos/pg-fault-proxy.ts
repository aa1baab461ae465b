/**
 * A fault proxy in front of a PostgreSQL cluster's Unix socket, as a flaky network or a dying load balancer
 * would be: it passes the protocol through untouched, and on request swallows the server's answer to the next
 * statement whose text holds a word, then cuts the client off (the server has acted; the client never
 * learns), cuts every connection and refuses new ones (the route gone), or holds every byte until resumed
 * (a stalled route). The team tests and the chaos run's `--team` faults go through it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PgFaultProxy {
  /** The folder a client names as `host=` to go through the proxy. */
  socketDir: string;
  /** Swallow the answer to the next statement holding `word`, and close that client's connection. */
  cutAnswerTo(word: string): void;
  /**
   * Hold the answer to the next statement holding `word` (the server has acted) until `releaseAnswer()`;
   * resolves once the answer is held. That connection alone waits; the others pass.
   */
  holdAnswerTo(word: string): Promise<void>;
  releaseAnswer(): void;
  /** No cut armed any more: an unspent one must not strike a later statement. */
  disarm(): void;
  /** How many answers were cut so far. */
  cuts: number;
  /** How many statements holding `word` clients sent through the proxy so far. */
  statements(word: string): number;
  /** Cuts every open connection and refuses new ones until `up()`. */
  down(): void;
  up(): void;
  /** Holds every byte both ways, nothing lost, until `resume()`. */
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startPgFaultProxy(serverSocketDir: string): Promise<PgFaultProxy> {
  const socketDir = mkdtempSync(path.join(tmpdir(), 'desk-pg-proxy-'));
  const sockets = new Set<Socket>();
  let cutWord: string | null = null;
  const sent: string[] = [];
  let isDown = false;
  let held: (() => void)[] | null = null;
  let holdWord: string | null = null;
  let holding: (() => void) | null = null;
  let releaseHeld: (() => void) | null = null;
  const pass = (write: () => void) => (held ? held.push(write) : write());
  const proxy: PgFaultProxy = {
    socketDir,
    cutAnswerTo: (word) => {
      cutWord = word;
    },
    holdAnswerTo: (word) =>
      new Promise<void>((answered) => {
        holdWord = word;
        holding = answered;
      }),
    releaseAnswer: () => {
      const release = releaseHeld;
      releaseHeld = null;
      release?.();
    },
    disarm: () => {
      cutWord = null;
      holdWord = null;
    },
    cuts: 0,
    statements: (word) => sent.filter((text) => text.includes(word)).length,
    down: () => {
      isDown = true;
      for (const socket of sockets) socket.destroy();
    },
    up: () => {
      isDown = false;
    },
    stall: () => {
      held ??= [];
    },
    resume: () => {
      const writes = held ?? [];
      held = null;
      for (const write of writes) write();
    },
    close: async () => undefined,
  };
  const server: Server = createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = connect(path.join(serverSocketDir, '.s.PGSQL.5432'));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
    }
    let cutting = false;
    let holdingHere: (() => void) | null = null;
    let heldHere: (() => void)[] | null = null;
    client.on('data', (chunk: Buffer) => {
      pass(() => {
        const text = chunk.toString('latin1');
        sent.push(text);
        if (cutWord !== null && text.includes(cutWord)) {
          cutWord = null;
          cutting = true;
        }
        if (holdWord !== null && holding && text.includes(holdWord)) {
          holdWord = null;
          holdingHere = holding;
          holding = null;
        }
        upstream.write(chunk);
      });
    });
    upstream.on('data', (chunk: Buffer) => {
      pass(() => {
        if (holdingHere) {
          // The server answered (and committed): the answer waits until released.
          const answered = holdingHere;
          holdingHere = null;
          heldHere = [];
          releaseHeld = () => {
            const writes = heldHere ?? [];
            heldHere = null;
            for (const write of writes) write();
          };
          heldHere.push(() => client.write(chunk));
          answered();
          return;
        }
        if (heldHere) return void heldHere.push(() => client.write(chunk));
        if (!cutting) return void client.write(chunk);
        // The server answered (and committed): the answer is dropped and the client cut off.
        proxy.cuts += 1;
        client.destroy();
        upstream.destroy();
      });
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(path.join(socketDir, '.s.PGSQL.5432'), resolve));
  proxy.close = () =>
    new Promise<void>((resolve) => {
      proxy.resume();
      proxy.releaseAnswer();
      for (const socket of sockets) socket.destroy();
      server.close(() => {
        rmSync(socketDir, { recursive: true, force: true });
        resolve();
      });
    });
  return proxy;
}
