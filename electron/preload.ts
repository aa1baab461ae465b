/**
 * Exposes exactly the bridge of src/shared/bridge.ts to the page: call(method, input) over one IPC channel,
 * onEvent(listener) for core's events on another, pickBackupFile() for a restore's file dialog on a third and exportFolder() for a Markdown export's folder dialog on a fourth. No ipcRenderer, no Node, no event emitter crosses the
 * bridge (the page's listener gets the event alone, never the IPC event); main validates every call again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_KEY, type IntelDeskBridge } from '../src/shared/bridge';
import { EVENT_CHANNEL, EXPORT_FOLDER_CHANNEL, PICK_BACKUP_CHANNEL, RPC_CHANNEL } from './channel';

const bridge: IntelDeskBridge = {
  call: (method: unknown, input: unknown): Promise<unknown> => {
    if (typeof method !== 'string') return Promise.reject(new Error('method must be a string'));
    return ipcRenderer.invoke(RPC_CHANNEL, method, input);
  },
  onEvent: (listener: (event: unknown) => void): (() => void) => {
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    const forward = (_ipc: IpcRendererEvent, event: unknown) => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
  // No argument crosses: main shows the dialog, and the page only ever gets a token for the chosen file.
  pickBackupFile: (): Promise<unknown> => ipcRenderer.invoke(PICK_BACKUP_CHANNEL),
  // A handle at most: main shows the folder dialog and core writes there.
  exportFolder: (handle?: unknown): Promise<unknown> =>
    ipcRenderer.invoke(EXPORT_FOLDER_CHANNEL, typeof handle === 'string' ? { handle } : {}),
};

contextBridge.exposeInMainWorld(BRIDGE_KEY, bridge);
