/** The IPC channels between preload and main (calls in, core's events out), the app origin and link scheme. */
export const RPC_CHANNEL = 'intel-desk:rpc';
export const EVENT_CHANNEL = 'intel-desk:event';
/** The page asks main for the file dialog of a restore; main answers with a token, never letting it name a path. */
export const PICK_BACKUP_CHANNEL = 'intel-desk:pick-backup';
/** The page asks main for the folder dialog of a Markdown export, naming at most a handle, never a path. */
export const EXPORT_FOLDER_CHANNEL = 'intel-desk:export-folder';
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://desk';
/** intel-desk:// links other apps open the desk with (deep-links.ts, electron-builder.yml's protocols). */
export const DEEP_LINK_SCHEME = 'intel-desk';
