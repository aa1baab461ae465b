/**
 * The file dialog for Settings → Library → Restore from a file (decision 0038). The page cannot name a path:
 * it asks main to show the dialog, main hands the file the person chose to core (`library.pickRestoreFile`,
 * which only a host may call) and gives the page back a one-time token for `library.restore`, the file's
 * path to show, and whether it lies outside backups/ (then the page asks the person to confirm).
 */
import { dialog, ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { DispatchResult } from '../src/host/dispatch';
import { PICK_BACKUP_CHANNEL } from './channel';

export interface BackupPicker {
  /** Only the desk window's top frame may ask (main's own check for RPC calls). */
  fromDeskWindow(event: IpcMainInvokeEvent): boolean;
  window(): BrowserWindow | null;
  /** The backups folder, where the dialog opens. */
  folder(): Promise<string | null>;
  /** Core's host-only pick: the token for the chosen file. */
  pick(file: string): Promise<DispatchResult>;
  log(message: string): void;
}

export function answerBackupPicks(picker: BackupPicker): void {
  ipcMain.handle(PICK_BACKUP_CHANNEL, async (event): Promise<DispatchResult> => {
    if (!picker.fromDeskWindow(event)) {
      picker.log(`Refused a file dialog asked by ${event.senderFrame?.url ?? 'a closed frame'}`);
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Only Intel Desk itself may call Intel Desk.' },
      };
    }
    const folder = await picker.folder();
    const options: Electron.OpenDialogOptions = {
      title: 'Restore the library from a backup',
      buttonLabel: 'Choose',
      properties: ['openFile'],
      filters: [
        { name: 'Intel Desk library backups', extensions: ['db'] },
        { name: 'All files', extensions: ['*'] },
      ],
      ...(folder ? { defaultPath: folder } : {}),
    };
    const window = picker.window();
    const chosen = await (window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options));
    const file = chosen.filePaths[0];
    if (chosen.canceled || !file) return { ok: true, value: null };
    return picker.pick(file);
  });
}
