/**
 * Settings → Library: copies of the library in backups/ (when the last was taken, one now, restoring one:
 * RestoreBackup.tsx), and restoring purchases from the service by signing in with the wallet that bought them (sign-in-with-x).
 */
import { useId, useState } from 'react';
import { useSignMessage } from 'wagmi';
import type { RestorePurchasesStep, RestoreSummary } from '../../shared/rpc';
import { megabytes } from '../../shared/bytes';
import { restoredSentences } from '../../shared/restore-text';
import { FormMessage } from '../components/FormMessage';
import { dateTime } from '../format';
import { errorMessage } from '../rpc/client';
import { useRpc, useRpcMutation, useRpcQuery } from '../rpc/context';
import { RestoreBackup } from './RestoreBackup';
import { backupsText as t } from '../text/backups';

function Backups() {
  const backups = useRpcQuery('library.backups', {});
  const backupNow = useRpcMutation('library.backup');
  const messageId = useId();
  const last = backups.data?.last ?? null;
  return (
    <>
      <p data-testid="last-backup">
        {backups.data
          ? last
            ? t('lastBackup', {
                when: dateTime(last.takenAt),
                size: megabytes(last.bytes),
                count: backups.data.count,
                folder: backups.data.folder,
              })
            : t('noBackupYet')
          : t('pending')}
      </p>
      <p className="muted small">{t('backupExplain')}</p>
      {backups.data?.lastError ? (
        <p className="muted small">{t('lastFailed', { error: backups.data.lastError })}</p>
      ) : null}
      <button type="button" onClick={() => backupNow.mutate({})} disabled={backupNow.isPending}>
        {backupNow.isPending ? t('backingUp') : t('backUpNow')}
      </button>
      <FormMessage
        id={messageId}
        error={backupNow.isError ? errorMessage(backupNow.error) : null}
        success={backupNow.isSuccess ? t('backedUp') : null}
      />
    </>
  );
}

type Phase = 'idle' | 'restoring' | 'signing';

/** Runs the restore to its end, asking the connected wallet to sign whenever core hands it a challenge. */
function RestorePurchases() {
  const { client } = useRpc();
  const { signMessageAsync } = useSignMessage();
  const [phase, setPhase] = useState<Phase>('idle');
  const [summary, setSummary] = useState<RestoreSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const messageId = useId();

  async function restore() {
    setPhase('restoring');
    setSummary(null);
    setError(null);
    try {
      let step: RestorePurchasesStep = await client.call('library.restorePurchases', {});
      while (step.status === 'sign') {
        setPhase('signing');
        const signature = await signMessageAsync({ message: step.message });
        setPhase('restoring');
        step = await client.call('library.restorePurchases', {
          signed: { message: step.message, signature },
        });
      }
      setSummary(step.summary);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPhase('idle');
    }
  }

  return (
    <>
      <h3>{t('restorePurchases')}</h3>
      <p className="muted small">{t('restorePurchasesExplain')}</p>
      <button
        type="button"
        onClick={() => void restore()}
        disabled={phase !== 'idle'}
        aria-describedby={messageId}
      >
        {phase === 'signing'
          ? t('waitingSign')
          : phase === 'restoring'
            ? t('restoring')
            : t('restorePurchases')}
      </button>
      <div id={messageId} role="status" aria-live="polite">
        {error ? <p className="form-message error-text">{error}</p> : null}
        {summary ? (
          <ul className="restore-summary" data-testid="restore-summary">
            {restoredSentences(summary).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
  );
}

export function LibraryCard() {
  return (
    <div className="settings-block">
      <h2>{t('libraryTitle')}</h2>
      <Backups />
      <RestoreBackup />
      <RestorePurchases />
    </div>
  );
}
