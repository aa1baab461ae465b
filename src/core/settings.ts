/** User settings and per-service payee pins, in desk.db. */
import { z } from 'zod';
import {
  AUTO_LOCK_MAX_MINUTES,
  DEFAULT_AUTO_LOCK_MINUTES,
  walletConnectProjectIdSchema,
  type SettingsView,
} from '../shared/rpc';
import type { DeskDb } from './db/open';
import type { DeskEvents } from './events';

const storedSettingsSchema = z.object({
  serviceUrl: z.string().default(''),
  perPurchaseCapUsd: z.number().nonnegative().default(5),
  dailyCapUsd: z.number().nonnegative().default(20),
  theme: z.enum(['light', 'dark', 'system']).default('system'),
  walletConnectProjectId: walletConnectProjectIdSchema.nullable().default(null),
  welcomeDismissed: z.boolean().default(false),
  /** The chain RPC chosen in Settings; null = the network's public endpoint (payments/chain-rpc.ts). */
  chainRpcUrl: z.string().nullable().default(null),
  /** Minutes an unlocked keystore stays unlocked unused (decision 0029). */
  autoLockMinutes: z.number().int().min(1).max(AUTO_LOCK_MAX_MINUTES).default(DEFAULT_AUTO_LOCK_MINUTES),
});
export type StoredSettings = z.infer<typeof storedSettingsSchema>;

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
    const parsed = storedSettingsSchema.safeParse(raw);
    return parsed.success ? parsed.data : storedSettingsSchema.parse({});
  }

  update(patch: Partial<StoredSettings>): StoredSettings {
    const put = this.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch))
        if (value !== undefined) put.run(key, JSON.stringify(value));
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

export function settingsView(
  settings: StoredSettings,
  secret: { set: boolean; accepted: boolean | null; origin: string | null },
  demoLibrarySecretOffered: boolean,
  walletConnectRelayUrl: string,
): SettingsView {
  return {
    serviceUrl: settings.serviceUrl,
    perPurchaseCapUsd: settings.perPurchaseCapUsd,
    dailyCapUsd: settings.dailyCapUsd,
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
  };
}
