/**
 * The library secret (spec 5.8), owned by this module alone: sealed on disk, bound to the service origin it
 * was entered for, sent only over https or to this computer, and set aside once that service refuses it. A
 * secret from the environment (the CLI) is held for the run only and hides the stored one. LibrarySecret is
 * what the rest of core uses: which secret may go where, the service's verdict on it, and the words for both.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { DeskError, refused } from '../base/errors';
import { encryptedOrLocal } from '../../shared/transport';
import { writePrivateFile, type LocalSealer } from '../wallet/sealing';
import type { DeskEvents } from '../base/events';
import type { ServiceClient } from '../client/service-client';

export type LibrarySecretState = 'unchecked' | 'accepted' | 'refused';

const heldSchema = z.object({
  v: z.literal(1),
  origin: z.string().min(1),
  secret: z.string().min(1),
  state: z.enum(['unchecked', 'accepted', 'refused']),
});
type Held = z.infer<typeof heldSchema>;

export function serviceOrigin(url: string): string {
  if (!URL.canParse(url))
    throw new DeskError('invalid_service_url', `"${url.slice(0, 200)}" is not a URL.`, 'usage');
  return new URL(url).origin;
}

function assertMayGoTo(origin: string): void {
  if (!encryptedOrLocal(origin)) {
    throw new DeskError(
      'library_secret_insecure',
      `The library secret is sent only over https (or to this computer), and ${origin} is plain http; use the service's https address.`,
      'usage',
      { origin },
    );
  }
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export interface LibrarySecretStatus {
  /** The origin the secret was entered for, which may not be the service now selected. */
  origin: string | null;
  state: LibrarySecretState | null;
}

/** The sealed secret on disk, and the one held for this run only. */
class LibrarySecretStore {
  private session: Held | null = null;

  constructor(
    private readonly file: string,
    private readonly sealer: LocalSealer,
    private readonly events: DeskEvents | null = null,
  ) {}

  private stored(): Held | null {
    if (!existsSync(this.file)) return null;
    const plain = this.sealer.open(readFileSync(this.file, 'utf8'));
    if (plain === null) {
      throw new DeskError(
        'library_secret_unreadable',
        'The stored library secret cannot be unsealed here; enter it again in Settings.',
        'storage',
      );
    }
    // A secret stored before secrets were bound to a service does not say where it may go: it is not used.
    const parsed = heldSchema.safeParse(parseJsonOrNull(plain));
    return parsed.success ? parsed.data : null;
  }

  private current(): Held | null {
    return this.session ?? this.stored();
  }

  private write(held: Held): void {
    writePrivateFile(this.file, this.sealer.seal(JSON.stringify(held)));
    this.events?.changed('settings.changed');
  }

  status(): LibrarySecretStatus {
    const held = this.current();
    return { origin: held?.origin ?? null, state: held?.state ?? null };
  }

  /** The secret that may be sent to this origin: entered for it, and not refused by it. */
  for(origin: string): string | null {
    const held = this.current();
    if (!held || held.origin !== origin || held.state === 'refused' || !encryptedOrLocal(origin)) return null;
    return held.secret;
  }

  store(secret: string, origin: string): void {
    assertMayGoTo(origin);
    this.write({ v: 1, origin, secret, state: 'unchecked' });
  }

  /** For one run only (the CLI's INTEL_DESK_LIBRARY_SECRET): nothing is written. */
  useForSession(secret: string, origin: string): void {
    assertMayGoTo(origin);
    this.session = { v: 1, origin, secret, state: 'unchecked' };
    this.events?.changed('settings.changed');
  }

  clear(): void {
    rmSync(this.file, { force: true });
    this.events?.changed('settings.changed');
  }

  /** What the service answered to this secret; a refusal is kept, so it never stands in for buying again. */
  mark(secret: string, state: 'accepted' | 'refused'): void {
    if (this.session) {
      if (this.session.secret === secret && this.session.state !== state) {
        this.session.state = state;
        this.events?.changed('settings.changed');
      }
      return;
    }
    const stored = this.stored();
    if (stored?.secret === secret && stored.state !== state) this.write({ ...stored, state });
  }
}

export interface LibrarySecretDeps {
  /** Where the sealed secret is kept (library-secret.sealed in the data folder). */
  file: string;
  sealer: LocalSealer;
  events: DeskEvents;
  /** The service this run uses now. */
  serviceUrl: () => string;
  /** The service chosen in Settings (or the default), which a secret from the environment is bound to. */
  savedServiceUrl: () => string;
  client: () => ServiceClient;
}

/** Where the secret stands for the service now selected, as Settings shows it (no secret crosses). */
export interface LibrarySecretView {
  set: boolean;
  accepted: boolean | null;
  origin: string | null;
}

const refusal = (error: unknown) =>
  error instanceof DeskError &&
  (error.code === 'invalid_library_secret' || error.code === 'library_secret_required');

export class LibrarySecret {
  private readonly store: LibrarySecretStore;

  constructor(private readonly deps: LibrarySecretDeps) {
    this.store = new LibrarySecretStore(deps.file, deps.sealer, deps.events);
  }

  /** The secret for the service now selected, when one was entered for it and it has not refused it. */
  current(): string | null {
    return this.store.for(serviceOrigin(this.deps.serviceUrl()));
  }

  /**
   * The secret together with the client for the origin it is bound to, taken at once: a change of service
   * while a request is under way cannot send the secret elsewhere.
   */
  access(): { secret: string; client: ServiceClient } | null {
    const client = this.deps.client();
    const secret = this.store.for(serviceOrigin(client.baseUrl));
    return secret === null ? null : { secret, client };
  }

  /** access(), or the refusal that says why there is none: refused, entered for another service, or not set. */
  requireAccess(): { secret: string; client: ServiceClient } {
    const access = this.access();
    if (access) return access;
    const { origin, state } = this.store.status();
    const here = serviceOrigin(this.deps.serviceUrl());
    if (origin === here && state === 'refused')
      throw new DeskError(
        'library_secret_refused',
        'The service refused the library secret; enter it again in Settings if it changed.',
        'usage',
      );
    if (origin !== null && origin !== here)
      throw new DeskError(
        'library_secret_other_service',
        `The library secret was entered for ${origin}, not ${here}; enter the secret for this service in Settings.`,
        'usage',
        { origin },
      );
    throw new DeskError(
      'library_secret_required',
      'Dossiers need the library secret: set it in Settings.',
      'usage',
    );
  }

  /** Stores the secret for the service now selected (https or loopback only), or forgets it. */
  set(secret: string | null): void {
    if (secret === null) this.store.clear();
    else this.store.store(secret, serviceOrigin(this.deps.serviceUrl()));
  }

  /**
   * The origin a secret from the environment may go to: the one named for it (`boundTo`), else the saved
   * service. A run whose service is another one is refused before anything is sent: a `--service` typed for
   * one command must not carry a secret kept in a shell profile to that address.
   */
  environmentOrigin(boundTo?: string): string {
    const bound = serviceOrigin(boundTo ?? this.deps.savedServiceUrl());
    const service = serviceOrigin(this.deps.serviceUrl());
    if (service !== bound) {
      throw new DeskError(
        'library_secret_other_origin',
        `The library secret given for this run is bound to ${bound}, and this run's service is ${service}: it was not sent.`,
        'usage',
        { origin: bound, service, named: boundTo !== undefined },
      );
    }
    return bound;
  }

  /** A secret for this run only (the CLI's environment): bound as environmentOrigin says, never stored. */
  useForSession(secret: string, boundTo?: string): void {
    this.store.useForSession(secret, this.environmentOrigin(boundTo));
  }

  /** Where the secret stands for the service now selected; one that cannot be unsealed here shows as not set. */
  view(): LibrarySecretView {
    let status: LibrarySecretStatus = { origin: null, state: null };
    try {
      status = this.store.status();
    } catch {
      // Entering it again replaces it.
    }
    const set = status.origin !== null && status.origin === serviceOrigin(this.deps.serviceUrl());
    const accepted = status.state === 'accepted' ? true : status.state === 'refused' ? false : null;
    return { set, accepted: set ? accepted : null, origin: status.origin };
  }

  /**
   * Runs one request that carries the secret and records the service's answer to it: a refusal is kept, so
   * the secret stops standing in for buying until it is entered again.
   */
  async carrying<T>(access: { secret: string }, request: () => Promise<T>): Promise<T> {
    try {
      const answer = await request();
      this.store.mark(access.secret, 'accepted');
      return answer;
    } catch (error) {
      if (refusal(error)) this.store.mark(access.secret, 'refused');
      // The route checks the secret before it looks for the handle.
      else if (error instanceof DeskError && error.code === 'unknown_handle')
        this.store.mark(access.secret, 'accepted');
      throw error;
    }
  }

  /** Asks the bundle route whether the service accepts the stored secret; no answer leaves it unchecked. */
  async check(): Promise<void> {
    const access = this.access();
    if (!access) return;
    try {
      const shelf = await access.client.list();
      const first = shelf.entries[0];
      if (!first) return;
      await this.carrying(access, () => access.client.bundleGet(first.username, access.secret));
    } catch {
      // Unreachable or not answering: the secret stays unchecked, and the next request that carries it tells.
    }
  }

  /** Why a read with the secret cannot go on: none is set for this service any more, or it was refused. */
  noneForRead(): DeskError {
    return refused(
      'library_secret_required',
      'The library secret is no longer set (or the service refused it), so nothing was read; nothing was paid.',
    );
  }

  /**
   * The service refused the secret on a paid route: it is set aside for good, until it is entered again, and
   * this says so.
   */
  refusedOnRead(secret: string): DeskError {
    this.store.mark(secret, 'refused');
    return new DeskError(
      'invalid_library_secret',
      'The service refused the library secret, so it is no longer used in place of buying; nothing was paid. Ask for the price again to buy.',
      'service',
    );
  }
}
