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
  /** Every copy in backups/, newest first. */
  copies: BackupView[];
  count: number;
  folder: string;
  /** Why the last automatic copy failed, when it did. */
  lastError: string | null;
}

/** The name of a library copy in backups/ (desk-<UTC time>-<reason>.db), never a path. */
export const backupNameSchema = z
  .string()
  .regex(/^desk-\d{8}T\d{9}Z-(purchase|daily|manual|migration|restore)\.db$/, 'not the name of a backup');

export interface RestoreView {
  /** The file restored from. */
  file: string;
  /** Reports in the library once restored. */
  reports: number;
  /** Purchases the backup held that this desk's ledger did not (added; none this desk holds is changed). */
  purchasesAdded: number;
  /** Purchase requests from an assistant the backup held waiting, which are not carried over. */
  requestsDropped: number;
  /** The library as it was before, kept in backups/. */
  safetyCopy: BackupView;
}

/** A file a person picked to restore from (a file dialog, the CLI's --from), named by a one-time token. */
export interface RestorePickView {
  picked: string;
  file: string;
  /** Outside the data folder's backups/: restoring it needs `confirmedOutside`. */
  outsideBackups: boolean;
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
  /**
   * A file the person picked (Electron's file dialog, the CLI's --from), held by core under a one-time token
   * for `library.restore`. Host only: a page can never name a path (decision 0038).
   */
  'library.pickRestoreFile': method<RestorePickView>()({
    input: z.object({ file: z.string().trim().min(1).max(4096) }),
    reads: [],
    changes: [],
    hostOnly: true,
  }),
  /**
   * Puts a backup's library back: a copy in backups/ by name, or a picked file by its token (one outside
   * backups/ only with `confirmedOutside`). The reports come from the file; this desk's settings, caps, payee
   * pins and chain RPC stay; its ledger keeps every purchase it holds; the file's purchase requests are
   * dropped. The library as it was is kept in backups/ first.
   */
  // The restored reports change what is owned, the ledger may gain purchases, search starts again.
  'library.restore': method<RestoreView>()({
    input: z.union([
      z.object({ backup: backupNameSchema }).strict(),
      z
        .object({
          picked: z.string().regex(/^[0-9a-f]{32}$/, 'not a picked file'),
          confirmedOutside: z.boolean().optional(),
        })
        .strict(),
    ]),
    reads: [],
    changes: ['backups', 'library', 'purchases', 'menu', 'quote', 'searches', 'app'],
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
