/**
 * Settings → Library: backups and restoring purchases (LibraryCard.tsx), restoring from a backup
 * (RestoreBackup.tsx).
 */
import { catalogue } from './catalogue';

export const BACKUPS_TEXT = {
  libraryTitle: 'Library',
  lastBackup: 'Last backup {when} ({size}); {count} kept in {folder}.',
  noBackupYet: 'No backup yet.',
  pending: '…',
  backupExplain:
    'The library is backed up after purchases, daily and before an upgrade; a damaged library is restored from the newest good backup at start.',
  lastFailed: 'The last automatic backup failed: {error}',
  backingUp: 'Backing up…',
  backUpNow: 'Back up now',
  backedUp: 'Backed up.',
  restorePurchases: 'Restore purchases',
  restorePurchasesExplain:
    'On a new computer or after losing the library: the wallet that bought the reports signs in to the service, which sends them again for free. Nothing is paid, and reports the library holds receipts for are checked against them.',
  waitingSign: 'Waiting for the wallet to sign…',
  restoring: 'Restoring…',
  kindPurchase: 'after a purchase',
  kindDaily: 'daily',
  kindManual: 'on request',
  kindMigration: 'before an upgrade',
  kindRestore: 'before a restore',
  backupLabel: '{when}, {kind} ({size})',
  restoreTitle: 'Restore from a backup',
  restoreExplain:
    "Puts a backup's reports, tags, notes, saved searches and drafts back in place of the library's. This desk's settings, spending caps, payee pins, chain RPC and purchase records are kept; the library as it is now is copied into the backups folder first.",
  backup: 'Backup',
  restoreChosen: 'Restore…',
  noBackup: 'No backup to restore yet.',
  restoreFromFile: 'Restore from a file…',
  elsewhere: 'A file from elsewhere is restored from the desktop app or with',
  restoreCommand: 'intel-desk restore --from FILE',
  sentenceEnd: '.',
  dialogTitle: 'Restore the library?',
  replacedByCopy: "The library's reports are replaced by those of the backup taken {backup}.",
  replacedByFile: "The library's reports are replaced by those of {file}.",
  outsideWarning: 'This file is not in the backups folder. Restore it only if you know where it came from.',
  keptExplain:
    "This desk's settings, spending caps, payee pins, chain RPC and purchase records stay as they are; purchase requests in the backup are not carried over. The library as it is now is kept in the backups folder.",
  cancel: 'Cancel',
  restoreFromThisFile: 'Restore from this file',
  restore: 'Restore',
} as const;

export const backupsText = catalogue(BACKUPS_TEXT);
