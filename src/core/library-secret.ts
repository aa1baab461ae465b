/**
 * The library secret (spec 5.8): sealed on disk, bound to the service origin it was entered for, sent only
 * over https or to this computer, and set aside once that service refuses it. A secret from the environment
 * (the CLI) is held for the run only and hides the stored one.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { DeskError } from './errors';
import { writePrivateFile, type LocalSealer } from './wallet/sealing';
import type { DeskEvents } from './events';

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

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/i;

/** A bearer secret crosses the network only encrypted; plain http is fine within this computer. */
export function secretMayGoTo(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname));
}

function assertMayGoTo(origin: string): void {
  if (!secretMayGoTo(origin)) {
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

export class LibrarySecretStore {
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
    if (!held || held.origin !== origin || held.state === 'refused' || !secretMayGoTo(origin)) return null;
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
