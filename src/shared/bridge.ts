/**
 * How the renderer reaches core, declared once for both sides: in Electron the preload exposes BRIDGE_KEY on
 * window with exactly IntelDeskBridge; in the browser every RPC request carries the per-run token in
 * TOKEN_HEADER.
 */

/** The name of the preload's one object on window. */
export const BRIDGE_KEY = 'intelDesk';

export interface IntelDeskBridge {
  /** One RPC call; answers the host's DispatchResult envelope ({ ok, value } or { ok, error }). */
  call(method: string, input: unknown): Promise<unknown>;
  /** Core's events (src/shared/events.ts), unchecked here; returns the function that stops listening. */
  onEvent(listener: (event: unknown) => void): () => void;
  /**
   * Electron only: main shows a file dialog for a backup to restore and answers a DispatchResult whose value
   * is a RestorePickView (a one-time token, the file, whether it is outside backups/) or null when cancelled.
   * Browser mode has no native dialog: the window restores copies in backups/ by name (decision 0038).
   */
  pickBackupFile?(): Promise<unknown>;
  /**
   * Electron only: main shows a folder dialog and core writes a handle's reports (or the library's) there as
   * Markdown (decision 0049); answers a DispatchResult whose value is a FolderExportView, or null when cancelled.
   */
  exportFolder?(handle?: string): Promise<unknown>;
}

/** The web host's per-run token header (Node reads header names in lower case). */
export const TOKEN_HEADER = 'x-intel-desk-token';
