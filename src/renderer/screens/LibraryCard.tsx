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
            ? `Last backup ${dateTime(last.takenAt)} (${megabytes(last.bytes)}); ${backups.data.count} kept in ${backups.data.folder}.`
            : 'No backup yet.'
          : '…'}
      </p>
      <p className="muted small">
        The library is backed up after purchases, daily and before an upgrade; a damaged library is restored
        from the newest good backup at start.
      </p>
      {backups.data?.lastError ? (
        <p className="muted small">The last automatic backup failed: {backups.data.lastError}</p>
      ) : null}
      <button type="button" onClick={() => backupNow.mutate({})} disabled={backupNow.isPending}>
        {backupNow.isPending ? 'Backing up…' : 'Back up now'}
      </button>
      <FormMessage
        id={messageId}
        error={backupNow.isError ? errorMessage(backupNow.error) : null}
        success={backupNow.isSuccess ? 'Backed up.' : null}
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
      <h3>Restore purchases</h3>
      <p className="muted small">
        On a new computer or after losing the library: the wallet that bought the reports signs in to the
        service, which sends them again for free. Nothing is paid, and reports the library holds receipts for
        are checked against them.
      </p>
      <button
        type="button"
        onClick={() => void restore()}
        disabled={phase !== 'idle'}
        aria-describedby={messageId}
      >
        {phase === 'signing'
          ? 'Waiting for the wallet to sign…'
          : phase === 'restoring'
            ? 'Restoring…'
            : 'Restore purchases'}
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
      <h2>Library</h2>
      <Backups />
      <RestoreBackup />
      <RestorePurchases />
    </div>
  );
}
