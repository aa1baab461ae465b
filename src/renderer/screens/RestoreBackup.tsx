/**
 * Settings → Library → Restore from a backup (decision 0038): a copy in backups/ chosen from the list, or, in
 * the desktop app, a file chosen in the system's file dialog (main hands core the file; this page holds only
 * a token, never a path it could choose). A confirm step says what a restore takes and what it keeps, and
 * names a file from outside backups/ as such. Browser mode has no native dialog: copies in backups/ only.
 */
import { useId, useState } from 'react';
import type { BackupView, RestorePickView, RestoreView } from '../../shared/rpc';
import { megabytes } from '../../shared/bytes';
import { restoredBackupSentences } from '../../shared/restore-text';
import { Dialog } from '../components/Dialog';
import { dateTime } from '../format';
import { backupFilePicker, errorMessage } from '../rpc/client';
import { useRpc, useRpcQuery } from '../rpc/context';
import { backupsText as t } from '../text/backups';

type Choice = { kind: 'copy'; backup: BackupView } | { kind: 'file'; pick: RestorePickView };

const KINDS: Record<BackupView['reason'], string> = {
  purchase: t('kindPurchase'),
  daily: t('kindDaily'),
  manual: t('kindManual'),
  migration: t('kindMigration'),
  restore: t('kindRestore'),
};

const nameOf = (file: string) => file.split(/[\\/]/).pop() ?? file;
const label = (backup: BackupView) =>
  t('backupLabel', {
    when: dateTime(backup.takenAt),
    kind: KINDS[backup.reason],
    size: megabytes(backup.bytes),
  });

export function RestoreBackup() {
  const { client } = useRpc();
  const backups = useRpcQuery('library.backups', {});
  const [selected, setSelected] = useState('');
  const [choice, setChoice] = useState<Choice | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [restored, setRestored] = useState<RestoreView | null>(null);
  const messageId = useId();
  const pickFile = backupFilePicker();
  const copies = backups.data?.copies ?? [];
  const chosenCopy = copies.find((backup) => backup.file === selected) ?? copies[0] ?? null;

  async function chooseFile() {
    if (!pickFile) return;
    setError(null);
    try {
      const pick = await pickFile();
      if (pick) setChoice({ kind: 'file', pick });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  async function restore(confirmed: Choice) {
    setBusy(true);
    setError(null);
    setRestored(null);
    try {
      setRestored(
        await client.call(
          'library.restore',
          confirmed.kind === 'copy'
            ? { backup: nameOf(confirmed.backup.file) }
            : {
                picked: confirmed.pick.picked,
                ...(confirmed.pick.outsideBackups ? { confirmedOutside: true } : {}),
              },
        ),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
      setChoice(null);
    }
  }

  const outside = choice?.kind === 'file' && choice.pick.outsideBackups;
  return (
    <>
      <h3>{t('restoreTitle')}</h3>
      <p className="muted small">{t('restoreExplain')}</p>
      {copies.length > 0 ? (
        <>
          <label>
            {t('backup')}
            <select value={chosenCopy?.file ?? ''} onChange={(event) => setSelected(event.target.value)}>
              {copies.map((backup) => (
                <option key={backup.file} value={backup.file}>
                  {label(backup)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={busy || !chosenCopy}
            aria-describedby={messageId}
            onClick={() => chosenCopy && setChoice({ kind: 'copy', backup: chosenCopy })}
          >
            {t('restoreChosen')}
          </button>
        </>
      ) : (
        <p className="muted small">{t('noBackup')}</p>
      )}
      {pickFile ? (
        <button type="button" disabled={busy} onClick={() => void chooseFile()}>
          {t('restoreFromFile')}
        </button>
      ) : (
        <p className="muted small">
          {t('elsewhere')} <code>{t('restoreCommand')}</code>
          {t('sentenceEnd')}
        </p>
      )}
      <div id={messageId} role="status" aria-live="polite">
        {busy ? <p className="muted small">{t('restoring')}</p> : null}
        {error ? <p className="form-message error-text">{error}</p> : null}
        {restored ? (
          <ul className="restore-summary" data-testid="restore-backup-summary">
            {restoredBackupSentences(restored).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <Dialog title={t('dialogTitle')} open={choice !== null} onClose={() => setChoice(null)}>
        {choice ? (
          <>
            <p>
              {choice.kind === 'copy'
                ? t('replacedByCopy', { backup: label(choice.backup) })
                : t('replacedByFile', { file: choice.pick.file })}
            </p>
            {outside ? (
              <p className="error-text" data-testid="restore-outside-warning">
                {t('outsideWarning')}
              </p>
            ) : null}
            <p className="muted small">{t('keptExplain')}</p>
            <div className="dialog-actions">
              <button type="button" data-autofocus onClick={() => setChoice(null)}>
                {t('cancel')}
              </button>
              <button type="button" className="primary" onClick={() => void restore(choice)}>
                {outside ? t('restoreFromThisFile') : t('restore')}
              </button>
            </div>
          </>
        ) : null}
      </Dialog>
    </>
  );
}
