/**
 * Core calls its SecretVault synchronously, but Electron's safeStorage exists only on the main thread. The
 * worker end posts a request on its own port and blocks on a shared flag (Atomics.wait; blocking is what a
 * worker may do), the host end answers from its event loop and raises the flag, and the worker reads the
 * answer off the port synchronously. The host never blocks.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { DeskError } from '../core/base/errors';
import type { SecretVault } from '../core';
import type { VaultReply, VaultRequest } from './core-protocol';

const WAITING = 0;
const ANSWERED = 1;
/** The keychain may show a prompt (macOS asks once per app); a person needs time to answer it. */
const VAULT_TIMEOUT_MS = 120_000;

export function newVaultSignal(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** Host end: answers each request with the real vault, then wakes the worker. */
export function serveVault(vault: SecretVault, port: MessagePort, signal: Int32Array): void {
  port.on('message', (request: VaultRequest) => {
    let reply: VaultReply;
    try {
      if (request.op === 'isAvailable') reply = { ok: true, value: vault.isAvailable() };
      else if (request.op === 'encrypt')
        reply = { ok: true, value: new Uint8Array(vault.encrypt(request.plain)) };
      else reply = { ok: true, value: vault.decrypt(Buffer.from(request.data)) };
    } catch (error) {
      reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
    Atomics.store(signal, 0, ANSWERED);
    Atomics.notify(signal, 0);
  });
}

/** Worker end: a SecretVault whose every call is answered by the host's vault. */
export function vaultOverPort(port: MessagePort, signal: Int32Array): SecretVault {
  const ask = (request: VaultRequest): boolean | string | Uint8Array => {
    Atomics.store(signal, 0, WAITING);
    port.postMessage(request);
    const waited = Atomics.wait(signal, 0, WAITING, VAULT_TIMEOUT_MS);
    const received = receiveMessageOnPort(port);
    if (waited === 'timed-out' || !received) {
      throw new DeskError(
        'keychain_unanswered',
        'The system keychain did not answer within two minutes; try again, and answer its prompt if one shows.',
        'wallet',
      );
    }
    const reply = received.message as VaultReply;
    if (!reply.ok) throw new Error(`The system keychain refused: ${reply.message}`);
    return reply.value;
  };
  return {
    isAvailable: () => ask({ op: 'isAvailable' }) === true,
    encrypt: (plain) => Buffer.from(ask({ op: 'encrypt', plain }) as Uint8Array),
    decrypt: (data) => ask({ op: 'decrypt', data: new Uint8Array(data) }) as string,
  };
}
