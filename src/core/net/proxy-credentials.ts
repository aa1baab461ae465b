/**
 * A proxy's user name and password from Settings, sealed beside the data as the library secret is: desk.db,
 * and so every backup and copy of it, holds the proxy's address only. The credentials are bound to the
 * proxy's origin, so an address changed to another host never carries them there.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { writePrivateFile, type LocalSealer } from '../wallet/sealing';
import type { StoredProxy } from './proxy-route';

const keptSchema = z.object({ origin: z.string(), userinfo: z.string().min(1) });

/** An address's origin and its credentials as written in it (percent-encoded), apart. */
function apart(url: string): { bare: string; origin: string; userinfo: string | null } {
  const parsed = new URL(url);
  const userinfo = parsed.username
    ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}`
    : null;
  return { bare: parsed.origin, origin: parsed.origin, userinfo };
}

export class ProxyCredentials {
  constructor(
    private readonly file: string,
    private readonly sealer: LocalSealer,
  ) {}

  /** The address to store: its credentials sealed here, replacing any kept; an address without any clears them. */
  keep(url: string): string {
    const { bare, origin, userinfo } = apart(url);
    if (userinfo === null) this.forget();
    else writePrivateFile(this.file, this.sealer.seal(JSON.stringify({ origin, userinfo })));
    return bare;
  }

  /** A proxy chosen without an address of its own (none, the environment's): nothing to keep. */
  forget(): void {
    rmSync(this.file, { force: true });
  }

  /** The stored proxy with its credentials back in its address, for connecting only. */
  joined(proxy: StoredProxy): StoredProxy {
    if (proxy.mode !== 'manual' || !URL.canParse(proxy.url) || !existsSync(this.file)) return proxy;
    const opened = this.sealer.open(readFileSync(this.file, 'utf8'));
    const kept = opened === null ? null : keptSchema.safeParse(safeJson(opened));
    // Sealed on another computer, or damaged: the proxy is asked without them and its 407 says what to do.
    if (!kept?.success) return proxy;
    const { bare, origin } = apart(proxy.url);
    if (origin !== kept.data.origin) return proxy;
    return { ...proxy, url: bare.replace('://', `://${kept.data.userinfo}@`) };
  }

  /** A desk.db from before the credentials were sealed: they move out of it. */
  moveOutOf(proxy: StoredProxy): StoredProxy | null {
    if (proxy.mode !== 'manual' || !URL.canParse(proxy.url)) return null;
    if (apart(proxy.url).userinfo === null) return null;
    return { ...proxy, url: this.keep(proxy.url) };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
