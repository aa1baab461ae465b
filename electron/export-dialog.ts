/**
 * The folder dialog for Library → Export as Markdown folder (decision 0049). The page cannot name a path: it
 * asks main with at most a handle, main shows the system's folder dialog and hands the folder chosen to core
 * (`library.exportFolder`, which only a host may call), and the page gets back what was written.
 */
import { dialog, ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import type { DispatchResult } from '../src/host/dispatch';
import { handleInput } from '../src/shared/rpc';
import { EXPORT_FOLDER_CHANNEL } from './channel';

export interface FolderExporter {
  /** Only the desk window's top frame may ask (main's own check for RPC calls). */
  fromDeskWindow(event: IpcMainInvokeEvent): boolean;
  window(): BrowserWindow | null;
  /** Core's host-only export into the folder chosen. */
  exportFolder(dir: string, handle: string | undefined): Promise<DispatchResult>;
  log(message: string): void;
}

const askSchema = z.object({ handle: handleInput.optional() }).strict();

export function answerFolderExports(exporter: FolderExporter): void {
  ipcMain.handle(EXPORT_FOLDER_CHANNEL, async (event, raw: unknown): Promise<DispatchResult> => {
    if (!exporter.fromDeskWindow(event)) {
      exporter.log(`Refused a folder dialog asked by ${event.senderFrame?.url ?? 'a closed frame'}`);
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Only Intel Desk itself may call Intel Desk.' },
      };
    }
    const asked = askSchema.safeParse(raw ?? {});
    if (!asked.success) {
      return { ok: false, error: { code: 'invalid_input', message: 'That request was not valid.' } };
    }
    const options: Electron.OpenDialogOptions = {
      title: asked.data.handle
        ? `Export @${asked.data.handle}'s reports as Markdown`
        : 'Export the library as Markdown',
      buttonLabel: 'Export here',
      properties: ['openDirectory', 'createDirectory'],
    };
    const window = exporter.window();
    const chosen = await (window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options));
    const dir = chosen.filePaths[0];
    if (chosen.canceled || !dir) return { ok: true, value: null };
    return exporter.exportFolder(dir, asked.data.handle);
  });
}
