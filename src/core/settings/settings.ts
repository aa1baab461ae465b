/** User settings and per-service payee pins, in desk.db. */
import { z } from 'zod';
import { parseUnits } from 'viem';
import {
  AUTO_LOCK_MAX_MINUTES,
  DEFAULT_AUTO_LOCK_MINUTES,
  baseUnits,
  walletConnectProjectIdSchema,
  type SettingsView,
} from '../../shared/rpc';
import { TOKEN_DECIMALS } from '../../shared/money';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';
import type { NetworkChoice } from '../net/network';
import { environmentView, storedProxySchema, type Environment } from '../net/proxy-route';
import { systemCertificatesAvailable } from '../net/certificates';
import { maskedProxyUrl, type NetworkView } from '../../shared/proxy';

const storedSettingsSchema = z.object({
  serviceUrl: z.string().default(''),
  /** Token base units (decision 0034): $5 and $20 until the person sets their own. */
  perPurchaseCapUnits: baseUnits.default('5000000'),
  dailyCapUnits: baseUnits.default('20000000'),
  theme: z.enum(['light', 'dark', 'system']).default('system'),
  walletConnectProjectId: walletConnectProjectIdSchema.nullable().default(null),
  welcomeDismissed: z.boolean().default(false),
  /** The chain RPC chosen in Settings; null = the network's public endpoint (payments/chain-rpc.ts). */
  chainRpcUrl: z.string().nullable().default(null),
  /** Minutes an unlocked keystore stays unlocked unused (decision 0029). */
  autoLockMinutes: z.number().int().min(1).max(AUTO_LOCK_MAX_MINUTES).default(DEFAULT_AUTO_LOCK_MINUTES),
  /** How core finds its proxy (decision 0046); a manual one keeps its credentials here, never in the view. */
  proxy: storedProxySchema.default({ mode: 'environment' }),
  /** A PEM file of extra certificate authorities; null = none. */
  caFile: z.string().nullable().catch(null).default(null),
  /** Trust the system's certificate store too, where this runtime can read it. */
  systemCertificates: z.boolean().catch(true).default(true),
});
export type StoredSettings = z.infer<typeof storedSettingsSchema>;

/**
 * Caps as versions before 0.2 stored them: a JSON number of USD under their own keys. Read while no base-units
 * value has replaced them, converted from the number's decimal form (toFixed: caps are at most a million USD,
 * where a double holds every sixth decimal), so a desk.db written then keeps the very same caps.
 */
const LEGACY_CAP_KEYS = { perPurchaseCapUnits: 'perPurchaseCapUsd', dailyCapUnits: 'dailyCapUsd' } as const;

function legacyCapUnits(usd: unknown): string | undefined {
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > 1e9) return undefined;
  return parseUnits(usd.toFixed(TOKEN_DECIMALS), TOKEN_DECIMALS).toString();
}

export class SettingsStore {
  constructor(
    private readonly db: DeskDb,
    private readonly events: DeskEvents | null = null,
  ) {}

  get(): StoredSettings {
    const rows = this.db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings').all();
    const raw: Record<string, unknown> = {};
    for (const row of rows) {
      try {
        raw[row.key] = JSON.parse(row.value);
      } catch {
        // A damaged value falls back to its default below rather than breaking start-up.
      }
    }
    for (const [key, legacyKey] of Object.entries(LEGACY_CAP_KEYS)) {
      if (raw[key] === undefined && raw[legacyKey] !== undefined) raw[key] = legacyCapUnits(raw[legacyKey]);
      delete raw[legacyKey];
    }
    const parsed = storedSettingsSchema.safeParse(raw);
    return parsed.success ? parsed.data : storedSettingsSchema.parse({});
  }

  update(patch: Partial<StoredSettings>): StoredSettings {
    const put = this.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    const forget = this.db.prepare('DELETE FROM settings WHERE key = ?');
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        put.run(key, JSON.stringify(value));
        // A cap in base units replaces the USD number an earlier version kept.
        if (Object.hasOwn(LEGACY_CAP_KEYS, key))
          forget.run(LEGACY_CAP_KEYS[key as keyof typeof LEGACY_CAP_KEYS]);
      }
    })();
    this.events?.changed('settings.changed');
    return this.get();
  }

  raw(key: string): string | null {
    return (
      this.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key)
        ?.value ?? null
    );
  }

  setRaw(key: string, value: string | null): void {
    if (value === null) this.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
    else this.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(key, value);
    this.events?.changed('settings.changed');
  }

  pinnedPayTo(serviceUrl: string): `0x${string}` | null {
    const row = this.db
      .prepare<[string], { pay_to: string }>('SELECT pay_to FROM payee_pins WHERE service_url = ?')
      .get(serviceUrl);
    return (row?.pay_to as `0x${string}` | undefined) ?? null;
  }

  pinPayTo(serviceUrl: string, payTo: string, at: string): void {
    this.db
      .prepare('INSERT OR REPLACE INTO payee_pins (service_url, pay_to, pinned_at) VALUES (?, ?, ?)')
      .run(serviceUrl, payTo, at);
    this.events?.changed('settings.changed');
  }
}

export function networkChoice(settings: StoredSettings): NetworkChoice {
  return { proxy: settings.proxy, caFile: settings.caFile, systemCertificates: settings.systemCertificates };
}

/** The network settings for the window: a proxy's user name and password stay in core. */
export function networkView(settings: StoredSettings, env: Environment): NetworkView {
  const proxy = settings.proxy;
  return {
    proxy:
      proxy.mode === 'manual'
        ? { mode: 'manual', url: maskedProxyUrl(proxy.url), noProxy: proxy.noProxy }
        : { mode: proxy.mode },
    environment: environmentView(env),
    caFile: settings.caFile,
    systemCertificates: settings.systemCertificates,
    systemCertificatesAvailable: systemCertificatesAvailable(),
  };
}

export function settingsView(
  settings: StoredSettings,
  secret: { set: boolean; accepted: boolean | null; origin: string | null },
  demoLibrarySecretOffered: boolean,
  walletConnectRelayUrl: string,
  network: NetworkView,
): SettingsView {
  return {
    serviceUrl: settings.serviceUrl,
    perPurchaseCapUnits: settings.perPurchaseCapUnits,
    dailyCapUnits: settings.dailyCapUnits,
    theme: settings.theme,
    librarySecretSet: secret.set,
    librarySecretAccepted: secret.accepted,
    librarySecretOrigin: secret.origin,
    demoLibrarySecretOffered,
    walletConnectProjectId: settings.walletConnectProjectId,
    walletConnectRelayUrl,
    welcomeDismissed: settings.welcomeDismissed,
    chainRpcUrl: settings.chainRpcUrl,
    autoLockMinutes: settings.autoLockMinutes,
    network,
  };
}
