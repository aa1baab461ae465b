/**
 * The service now selected: one client for its URL, and what the desk last saw of it. Whether the service is
 * online is known here only, so the purchaser and app.info read the same answer.
 */
import { ServiceClient } from './service-client';

/** What the desk last saw of the service: an answer (any status) or a failure to get one. */
export interface ServiceContact {
  reachable: boolean;
  reason: string | null;
  at: number;
}

export interface ConnectionOptions {
  fetch?: typeof fetch | undefined;
  attempts?: number | undefined;
  timeoutMs?: number | undefined;
  now: () => number;
}

export class ServiceConnection {
  private cached: ServiceClient | null = null;
  private last: ServiceContact | null = null;

  constructor(
    private readonly serviceUrl: () => string,
    private readonly options: ConnectionOptions,
  ) {}

  /** The client for the service now selected; a change of service starts with a new one. */
  client(): ServiceClient {
    const url = this.serviceUrl();
    if (!this.cached || this.cached.baseUrl !== url.replace(/\/+$/, '')) {
      // What was seen of another service says nothing about this one.
      this.last = null;
      this.cached = new ServiceClient(url, {
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        ...(this.options.attempts ? { attempts: this.options.attempts } : {}),
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        now: this.options.now,
        onContact: (contact) => {
          this.last = { ...contact, at: this.options.now() };
        },
      });
    }
    return this.cached;
  }

  /**
   * A client for this URL: the selected service's own when it is that one, else a new one with the same
   * options (what it sees does not change what the desk knows of the selected service).
   */
  clientFor(url: string): ServiceClient {
    const current = this.client();
    if (current.baseUrl === url.replace(/\/+$/, '')) return current;
    return new ServiceClient(url, {
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
      now: this.options.now,
    });
  }

  /** False once the service failed to answer, until it answers again. */
  get online(): boolean {
    return this.last?.reachable ?? true;
  }

  lastContact(): ServiceContact | null {
    return this.last;
  }
}
