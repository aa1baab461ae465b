/** The real electron/preload.ts against the recording stand-in: call and onEvent cross the bridge, no more. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EVENT_CHANNEL,
  EXPORT_FOLDER_CHANNEL,
  PICK_BACKUP_CHANNEL,
  RPC_CHANNEL,
} from '../../electron/channel';
import type { FakeElectron } from './launch';

vi.mock('electron', () => import('./fake-electron'));

let electron: FakeElectron;
beforeEach(async () => {
  vi.resetModules();
  electron = (await import('electron')) as unknown as FakeElectron;
  electron.reset();
  await import('../../electron/preload');
});

function exposedCall() {
  const [only] = electron.contextBridge.exposed;
  const api = only?.api as { call: (method: unknown, input: unknown) => Promise<unknown> };
  return api.call;
}

describe('preload', () => {
  it('exposes exactly intelDesk.call, onEvent, pickBackupFile and exportFolder, and nothing of ipcRenderer', () => {
    expect(electron.contextBridge.exposed.map((e) => e.key)).toEqual(['intelDesk']);
    const api = electron.contextBridge.exposed[0]?.api as Record<string, unknown>;
    expect(Object.keys(api)).toEqual(['call', 'onEvent', 'pickBackupFile', 'exportFolder']);
    expect(typeof api['call']).toBe('function');
    expect(typeof api['onEvent']).toBe('function');
    expect(Object.getPrototypeOf(api)).toBe(Object.prototype);
  });

  it('hands the page core’s event alone, and stops when asked', () => {
    const api = electron.contextBridge.exposed[0]?.api as {
      onEvent: (listener: (...args: unknown[]) => void) => () => void;
    };
    const heard: unknown[][] = [];
    const stop = api.onEvent((...args) => heard.push(args));
    const ipcEvent = { sender: electron.ipcRenderer };
    electron.ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, { type: 'library.changed' });
    expect(heard).toEqual([[{ type: 'library.changed' }]]);
    stop();
    electron.ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, { type: 'wallet.changed' });
    expect(heard).toHaveLength(1);
    expect(electron.ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
  });

  it('forwards a call over the one RPC channel and returns main’s answer', async () => {
    const call = exposedCall();
    await expect(call('app.info', { a: 1 })).resolves.toEqual({ ok: true, value: 'answered' });
    expect(electron.ipcRenderer.invocations).toEqual([[RPC_CHANNEL, 'app.info', { a: 1 }]]);
  });

  it('asks main for the backup file dialog without passing anything the page chose', async () => {
    const api = electron.contextBridge.exposed[0]?.api as {
      pickBackupFile: (...args: unknown[]) => Promise<unknown>;
    };
    await api.pickBackupFile('/etc/passwd');
    expect(electron.ipcRenderer.invocations).toEqual([[PICK_BACKUP_CHANNEL]]);
  });

  it('asks main for the export folder dialog passing a handle at most, never a path or an object', async () => {
    const api = electron.contextBridge.exposed[0]?.api as {
      exportFolder: (...args: unknown[]) => Promise<unknown>;
    };
    await api.exportFolder('alice', '/etc');
    await api.exportFolder({ dir: '/etc' });
    expect(electron.ipcRenderer.invocations).toEqual([
      [EXPORT_FOLDER_CHANNEL, { handle: 'alice' }],
      [EXPORT_FOLDER_CHANNEL, {}],
    ]);
  });

  it('refuses a method that is not a string without reaching main', async () => {
    const call = exposedCall();
    await expect(call({ toString: () => 'app.info' }, {})).rejects.toThrow('method must be a string');
    expect(electron.ipcRenderer.invocations).toEqual([]);
  });
});
