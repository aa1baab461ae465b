/**
 * The service now selected: one client for its URL, and what the desk last saw of it. Whether the service is
 * online is known here only, so the purchaser and app.info read the same answer.
 */
import type { DeskFetch } from '../net/network';
import { ServiceClient } from './service-client';

/** What the desk last saw of the service: an answer (any status) or a failure to get one. */
export interface ServiceContact {
  reachable: boolean;
  reason: string | null;
  at: number;
}

export interface ConnectionOptions {
  fetch?: DeskFetch | undefined;
  attempts?: number | undefined;
  timeoutMs?: number | undefined;
  now: () => number;
  /** The service was found unreachable, or reachable again (not called while it stays as it was). */
  onChange?: ((online: boolean) => void) | undefined;
}

/** How long after a failure the service is left alone before checkAgain probes it. */
const RECHECK_AFTER_MS = 2_000;

export class ServiceConnection {
  private cached: ServiceClient | null = null;
  private last: ServiceContact | null = null;
  private probing = false;
  private lastFailureAt: number | null = null;

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
      this.lastFailureAt = null;
      this.cached = new ServiceClient(url, {
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        ...(this.options.attempts ? { attempts: this.options.attempts } : {}),
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        now: this.options.now,
        onContact: (contact) => {
          const was = this.online;
          this.last = { ...contact, at: this.options.now() };
          if (!contact.reachable) this.lastFailureAt = this.last.at;
          if (this.online !== was) this.options.onChange?.(this.online);
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

  /**
   * While the service is unreachable, one TCP probe now and then (not awaited): nothing else asks the
   * service while the window only shows copies, so without it "offline" would outlast the outage until the
   * person happened to open something that needs the service.
   */
  checkAgain(): void {
    const last = this.last;
    if (this.probing || !last || last.reachable || this.options.now() - last.at < RECHECK_AFTER_MS) return;
    this.probing = true;
    this.client()
      .probe()
      .catch(() => undefined)
      .finally(() => {
        this.probing = false;
      });
  }

  /** Whether the service failed to answer at or after `at`, whatever it did after that. */
  failedSince(at: number): boolean {
    return this.lastFailureAt !== null && this.lastFailureAt >= at;
  }

  /** False once the service failed to answer, until it answers again. */
  get online(): boolean {
    return this.last?.reachable ?? true;
  }

  lastContact(): ServiceContact | null {
    return this.last;
  }
}
