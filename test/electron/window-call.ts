/** Calls core as the desk window's page does: through main's IPC handler, from its top frame on app://desk. */
import { RPC_CHANNEL } from '../../electron/channel';
import type { FakeElectron } from './launch';

export type FakeWindow = FakeElectron['fake']['windows'][number];

export async function callCore(
  electron: FakeElectron,
  window: FakeWindow,
  method: string,
  input: unknown,
): Promise<unknown> {
  const handler = electron.ipcMain.handlers.get(RPC_CHANNEL);
  if (!handler) throw new Error('main registered no RPC handler');
  const contents = window.webContents;
  const reply = (await handler({ sender: contents, senderFrame: contents.mainFrame }, method, input)) as
    { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return reply.value;
}
