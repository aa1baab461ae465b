/** Settings kept in desk.db, and the library secret (which only ever travels into core). */
import { z } from 'zod';
import { method } from './method';
import { consentPassphrase, httpUrlSchema, limitUnits } from './common';
import { caFileSchema, proxySettingSchema, type NetworkView } from '../proxy';

export interface SettingsView {
  serviceUrl: string;
  /** Token base units, as every amount of money in the contract (decision 0034). */
  perPurchaseCapUnits: string;
  dailyCapUnits: string;
  theme: 'light' | 'dark' | 'system';
  /** A secret is stored for the service now selected (accepted, refused or not yet checked). */
  librarySecretSet: boolean;
  /** null = not checked yet; false = refused by the service, so it is not used until entered again. */
  librarySecretAccepted: boolean | null;
  /** The service origin the stored secret was entered for; it is never sent anywhere else. */
  librarySecretOrigin: string | null;
  /** Demo mode: core holds the demo service's public secret and can use it when asked (it never comes out). */
  demoLibrarySecretOffered: boolean;
  /** Set = the WalletConnect connector is offered; not a secret (it identifies the app to the relay). */
  walletConnectProjectId: string | null;
  /** The relay the WalletConnect connector dials: WalletConnect's own unless the run named another (tests). */
  walletConnectRelayUrl: string;
  /** The first-run welcome was closed; kept in desk.db so it stays closed across runs and host ports. */
  welcomeDismissed: boolean;
  /** The chain RPC chosen in Settings; null = the network's public endpoint (a run's --rpc comes first). */
  chainRpcUrl: string | null;
  /** An unlocked keystore locks after this many minutes unused (and on the OS lock screen and sleep). */
  autoLockMinutes: number;
  /** Proxy and certificate authorities (decision 0046), a proxy's credentials masked. */
  network: NetworkView;
}

export const DEFAULT_AUTO_LOCK_MINUTES = 15;
export const AUTO_LOCK_MAX_MINUTES = 24 * 60;

/** A WalletConnect Cloud project id: 32 hex characters. */
export const walletConnectProjectIdSchema = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{32}$/i, 'A WalletConnect project id is 32 hexadecimal characters.');

export const settingsPatchSchema = z
  .object({
    serviceUrl: httpUrlSchema.optional(),
    perPurchaseCapUnits: limitUnits.optional(),
    dailyCapUnits: limitUnits.optional(),
    theme: z.enum(['light', 'dark', 'system']).optional(),
    walletConnectProjectId: walletConnectProjectIdSchema.nullable().optional(),
    welcomeDismissed: z.boolean().optional(),
    chainRpcUrl: httpUrlSchema.nullable().optional(),
    autoLockMinutes: z.number().int().min(1).max(AUTO_LOCK_MAX_MINUTES).optional(),
    proxy: proxySettingSchema.optional(),
    caFile: caFileSchema.nullable().optional(),
    systemCertificates: z.boolean().optional(),
    /** Needed to raise a cap while a keystore is stored (decision 0022); lowering needs nothing. */
    passphrase: consentPassphrase,
  })
  .strict();

export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const settingsMethods = {
  'settings.get': method<SettingsView>()({
    input: z.object({}),
    reads: ['settings'],
    changes: [],
  }),
  // The service URL decides the shelf, menus and prices; caps decide what a quote warns about.
  'settings.update': method<SettingsView>()({
    input: settingsPatchSchema,
    reads: [],
    changes: ['settings', 'app', 'shelf', 'menu', 'quote', 'purchases', 'wallet'],
  }),
  /** `fromEnvironment`: the CLI read it from its environment, so it is bound as for a run's secret (below). */
  'settings.setLibrarySecret': method<SettingsView>()({
    input: z.object({
      secret: z.string().min(1).max(4096),
      fromEnvironment: z.object({ boundTo: z.url().max(2048).optional() }).optional(),
    }),
    reads: [],
    changes: ['settings', 'quote'],
  }),
  'settings.clearLibrarySecret': method<SettingsView>()({
    input: z.object({}),
    reads: [],
    changes: ['settings', 'quote'],
  }),
  'settings.useDemoLibrarySecret': method<SettingsView>()({
    input: z.object({}),
    reads: [],
    changes: ['settings', 'quote'],
  }),
  /**
   * A library secret for this run only (the CLI's environment), never stored. It is bound to `boundTo` (an
   * origin the person named for it) or else to the saved service, and refused when this run's service is
   * another one.
   */
  'settings.useSessionLibrarySecret': method<SettingsView>()({
    input: z.object({
      secret: z.string().min(1).max(4096),
      boundTo: z.url().max(2048).optional(),
    }),
    reads: [],
    changes: ['settings', 'quote'],
  }),
};
