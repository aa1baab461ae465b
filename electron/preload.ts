/**
 * Exposes exactly one function to the page: call(method, input) over one IPC channel. No ipcRenderer, no
 * Node, no event emitters cross the bridge; main validates the method and input again.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_KEY, type IntelDeskBridge } from '../src/shared/bridge';
import { RPC_CHANNEL } from './channel';

const bridge: IntelDeskBridge = {
  call: (method: unknown, input: unknown): Promise<unknown> => {
    if (typeof method !== 'string') return Promise.reject(new Error('method must be a string'));
    return ipcRenderer.invoke(RPC_CHANNEL, method, input);
  },
};

contextBridge.exposeInMainWorld(BRIDGE_KEY, bridge);
