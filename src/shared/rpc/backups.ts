/** Copies of the library, restoring one, and restoring purchases from the service (sign-in-with-x). */
import { z } from 'zod';
import { method } from './method';

/** A copy of the library in backups/ (the data folder's). */
export interface BackupView {
  file: string;
  takenAt: string;
  reason: 'purchase' | 'daily' | 'manual' | 'migration' | 'restore';
  bytes: number;
}

export interface BackupsView {
  last: BackupView | null;
  count: number;
  folder: string;
  /** Why the last automatic copy failed, when it did. */
  lastError: string | null;
}

export interface RestoreView {
  /** Reports in the library once restored. */
  reports: number;
  /** The library as it was before, kept in backups/. */
  safetyCopy: BackupView;
}

/** What a restore of purchases from the service (sign-in-with-x) brought back. */
export interface RestoreSummary {
  serviceUrl: string;
  address: string;
  /** Purchases the service listed for the wallet. */
  purchases: number;
  /** Of them, those whose reports were stored now, and how many reports that was. */
  restoredPurchases: number;
  reports: number;
  /** Already whole in the library. */
  alreadyHeld: number;
  /**
   * Of the restored purchases, those the chain could not be asked about (no RPC for their network, or it did not
   * answer): kept on the service's word, outside the caps and spend totals.
   */
  notOnChain: number;
  /** Refused because a report's bytes differ from the receipt the library holds. */
  differsFromReceipt: number;
  /** Refused for another reason (an answer that is not what was bought, a shape the desk cannot read). */
  refused: number;
  /** The first few refusals, by settlement transaction. */
  problems: { transaction: string; reason: string }[];
}

export type RestorePurchasesStep =
  { status: 'sign'; message: string; address: string } | { status: 'done'; summary: RestoreSummary };

export const backupsMethods = {
  /** Copies the library into backups/ now (SQLite's online backup, in steps). */
  'library.backup': method<BackupView>()({
    input: z.object({}),
    reads: [],
    changes: ['backups'],
  }),
  // Stored reports are followed by an automatic copy.
  'library.backups': method<BackupsView>()({
    input: z.object({}),
    reads: ['backups', 'library'],
    changes: [],
  }),
  /** Replaces the library with a backup file's (checked first); the library as it was is kept in backups/. */
  // A restored library is another library: what it owns, its purchases, its settings.
  'library.restore': method<RestoreView>()({
    input: z.object({ from: z.string().trim().min(1).max(4096) }),
    reads: [],
    changes: ['backups', 'library', 'purchases', 'settings', 'menu', 'quote', 'searches', 'app'],
  }),
  /**
   * Brings back every purchase the wallet settled at the service (sign-in-with-x). A key in core signs by
   * itself; a wallet in the window gets `sign` steps and answers each with its signature over `message`.
   */
  'library.restorePurchases': method<RestorePurchasesStep>()({
    input: z.object({
      /** The wallet's signature over a `sign` step's message, with that message: it names which restore goes on. */
      signed: z
        .object({
          message: z.string().min(1).max(4000),
          signature: z
            .string()
            .regex(/^0x[0-9a-fA-F]+$/)
            .max(20_000),
        })
        .optional(),
    }),
    reads: [],
    changes: ['library', 'purchases', 'menu', 'quote'],
  }),
};
