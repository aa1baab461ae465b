/**
 * The fault-injecting proxy in front of the reference service, one per desk. Free requests pass; the next
 * paid request (one carrying a payment header) meets the armed fault, most of them after the service has
 * settled it. Every paid answer the service gave, and every one passed on to the desk, is kept by payment so
 * the invariants can compare the library with what was really delivered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';

export type PaidFault =
  | 'reset'
  | 'answer_dropped'
  | 'answer_delayed'
  | 'gateway_502'
  | 'gateway_504'
  | 'rate_limited_429'
  | 'paid_twice'
  | 'paid_twice_second_answer'
  | 'service_kill';

export interface ServiceAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A second copy of a paid request and what the service said to it. */
export interface Replay {
  payment: string;
  first: number;
  second: number;
  code: string | null;
  /**
   * Whether the payment carried an x402 payment id, and whether the second answer's body was the first's: a
   * service that offers payment-identifier answers the identical payment with the answer it kept (decision 0022).
   */
  withId?: boolean;
  sameBody?: boolean;
}

const sentPaymentIdSchema = z.looseObject({
  extensions: z.looseObject({
    'payment-identifier': z.looseObject({ info: z.looseObject({ id: z.string() }) }),
  }),
});

function carriesPaymentId(payment: string): boolean {
  try {
    return sentPaymentIdSchema.safeParse(JSON.parse(Buffer.from(payment, 'base64').toString('utf8'))).success;
  } catch {
    return false;
  }
}

const PAYMENT_HEADERS = ['x-402-payment', 'x-payment', 'payment-signature'];
const FORWARDED = [...PAYMENT_HEADERS, 'authorization', 'accept', 'x-library-secret'];
const PASSED_BACK = ['content-type', 'x-payment-response', 'payment-response', 'payment-required'];

const paymentPayload = z.object({
  payload: z.object({ authorization: z.object({ from: z.string(), nonce: z.string() }) }),
});

/** "payer/nonce" of a payment header, lower case: the key the ledger and the chain share. */
export function paymentKey(header: string): string | null {
  try {
    const parsed = paymentPayload.safeParse(JSON.parse(Buffer.from(header, 'base64').toString('utf8')));
    if (!parsed.success) return null;
    const { from, nonce } = parsed.data.payload.authorization;
    return `${from.toLowerCase()}/${nonce.toLowerCase()}`;
  } catch {
    return null;
  }
}

const errorCode = (text: string): string | null => {
  try {
    const parsed = z.object({ error: z.string() }).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.error : null;
  } catch {
    return null;
  }
};

export interface ServiceProxyOptions {
  /** How long an answer is held for 'answer_delayed': past the desk's own deadline. */
  delayMs: number;
  /** Kills the service process (and brings it back) for 'service_kill'. */
  killService: (afterMs: number) => Promise<void>;
}

export class ServiceProxy {
  url = '';
  /** Where the service listens now; a restarted service may listen elsewhere. */
  target: string;
  /** What the service answered to each paid request with a 200, by payment key. */
  readonly settledAnswers = new Map<string, string>();
  /** The paid 200 answers passed on to the desk unchanged, by payment key. */
  readonly delivered = new Map<string, string>();
  readonly replays: Replay[] = [];
  private armed: { fault: PaidFault; killAfterMs: number } | null = null;
  private refuseArmed = false;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly pending = new Set<Promise<unknown>>();
  private port = 0;

  constructor(
    target: string,
    private readonly options: ServiceProxyOptions,
  ) {
    this.target = target;
    this.server = createServer((req, res) => this.track(this.handle(req, res)));
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        this.sockets.delete(socket);
        // The desk's reachability probe opens a connection and closes it without a byte: the paid request
        // comes next, so going down now makes it meet a refused connection.
        if (socket.bytesRead === 0 && this.refuseArmed) {
          this.refuseArmed = false;
          this.down();
        }
      });
    });
  }

  async start(): Promise<void> {
    await this.listen(0);
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
  }

  /** The fault for the next paid request only. */
  arm(fault: PaidFault, killAfterMs = 0): void {
    this.armed = { fault, killAfterMs };
  }

  /** Refuses connections from the moment the desk's next reachability probe closes. */
  armRefusal(): void {
    this.refuseArmed = true;
  }

  /** Back to passing everything, listening again if it was down. */
  async reset(): Promise<void> {
    this.armed = null;
    this.refuseArmed = false;
    if (!this.server.listening) await this.listen(this.port);
  }

  /** Waits for replays and held answers still under way. */
  async quiet(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    this.down();
    await this.quiet();
  }

  private down(): void {
    if (this.server.listening) this.server.close();
    for (const socket of this.sockets) socket.destroy();
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  private track<T>(work: Promise<T>): void {
    const tracked = work.catch(() => undefined);
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  private async forward(req: IncomingMessage): Promise<ServiceAnswer> {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await fetch(`${this.target}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      signal: AbortSignal.timeout(30_000),
    });
    const out: Record<string, string> = {};
    for (const name of PASSED_BACK) {
      const value = upstream.headers.get(name);
      if (value !== null) out[name] = value;
    }
    return { status: upstream.status, headers: out, text: await upstream.text() };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const payment = PAYMENT_HEADERS.map((name) => req.headers[name]).find((v) => typeof v === 'string');
    const key = payment === undefined ? null : paymentKey(payment);
    const armed = key === null ? null : this.armed;
    if (armed) this.armed = null;
    if (armed?.fault === 'reset') return void req.socket.resetAndDestroy();

    let killing: Promise<void> | null = null;
    const answering = this.forward(req);
    if (armed?.fault === 'service_kill') killing = this.options.killService(armed.killAfterMs);
    let answer: ServiceAnswer;
    try {
      answer = await answering;
    } catch (error) {
      if (process.env['CHAOS_DEBUG'])
        process.stderr.write(`proxy: ${String(error)} ${String((error as Error).cause)}\n`);
      answer = { status: 502, headers: { 'content-type': 'text/html' }, text: '<h1>502 Bad Gateway</h1>' };
    }
    if (killing) await killing;
    if (key !== null && answer.status === 200) this.settledAnswers.set(key, answer.text);

    switch (armed?.fault) {
      case 'answer_dropped':
        return void req.socket.destroy();
      case 'answer_delayed':
        await new Promise((resolve) => setTimeout(resolve, this.options.delayMs));
        break;
      case 'gateway_502':
        return send(res, { status: 502, headers: { 'content-type': 'text/html' }, text: 'Bad Gateway' });
      case 'gateway_504':
        return send(res, { status: 504, headers: { 'content-type': 'text/html' }, text: 'Gateway Timeout' });
      case 'rate_limited_429':
        return send(res, {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          text: '{"error":"rate_limited","message":"Too many requests"}',
        });
      case 'paid_twice': {
        this.track(this.replay(req, payment ?? '', answer));
        break;
      }
      case 'paid_twice_second_answer': {
        const second = await this.replay(req, payment ?? '', answer);
        if (second) answer = second;
        break;
      }
      default:
        break;
    }
    if (res.destroyed || req.socket.destroyed) return;
    if (key !== null && answer.status === 200) this.delivered.set(key, answer.text);
    send(res, answer);
  }

  private async replay(
    req: IncomingMessage,
    payment: string,
    first: ServiceAnswer,
  ): Promise<ServiceAnswer | null> {
    try {
      const second = await this.forward(req);
      this.replays.push({
        payment,
        first: first.status,
        second: second.status,
        code: errorCode(second.text),
        withId: carriesPaymentId(payment),
        sameBody: second.text === first.text,
      });
      return second;
    } catch {
      return null;
    }
  }
}

function send(res: ServerResponse, answer: ServiceAnswer): void {
  if (res.destroyed) return;
  res.writeHead(answer.status, answer.headers);
  res.end(answer.text);
}
