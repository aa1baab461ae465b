/**
 * The typed RPC contract between the renderer and core. The Electron preload and the web host both expose
 * exactly these methods; inputs are validated with zod where they arrive (IPC handler, HTTP host) and again
 * at core's door. Secrets (library secret, private keys, passphrases after use) only ever travel
 * renderer -> core, never back.
 *
 * Each domain file declares its methods with `method()`: input, what it reads and changes, and output
 * together. This index joins them; a method is added in its domain's file and nowhere else.
 */
import type { z } from 'zod';
import { appMethods } from './app';
import { backupsMethods } from './backups';
import { catalogMethods } from './catalog';
import { dossierMethods } from './dossier';
import { libraryMethods } from './library';
import type { OutputOf, RpcTopic } from './method';
import { purchaseRequestsMethods } from './purchase-requests';
import { purchasesMethods } from './purchases';
import { reportMethods } from './report';
import { settingsMethods } from './settings';
import { teamMethods } from './team';
import { walletMethods } from './wallet';
import type { DeskErrorCode } from '../error-codes';

export * from './app';
export * from './backups';
export * from './catalog';
export * from './common';
export * from './dossier';
export * from './library';
export * from './purchase-requests';
export * from './purchases';
export * from './report';
export * from './settings';
export * from './team';
export * from './wallet';
export type { RpcTopic } from './method';
export type { HandleSpendView, LastPriceView, SpendView } from '../spend';

export const rpcMethods = {
  ...appMethods,
  ...catalogMethods,
  ...purchasesMethods,
  ...purchaseRequestsMethods,
  ...libraryMethods,
  ...reportMethods,
  ...backupsMethods,
  ...walletMethods,
  ...settingsMethods,
  ...dossierMethods,
  ...teamMethods,
};

export type RpcMethod = keyof typeof rpcMethods;

type RpcInputSchemas = { [M in RpcMethod]: (typeof rpcMethods)[M]['input'] };

/** Method name -> input schema. */
export const rpcInputs = Object.fromEntries(
  Object.entries(rpcMethods).map(([name, spec]) => [name, spec.input]),
) as RpcInputSchemas;

/** Method name -> what it reads and what it changes (see MethodSpec). */
export const rpcEffects = Object.fromEntries(
  Object.entries(rpcMethods).map(([name, spec]) => [name, { reads: spec.reads, changes: spec.changes }]),
) as { [M in RpcMethod]: { reads: readonly RpcTopic[]; changes: readonly RpcTopic[] } };

/** Methods a page may not call (MethodSpec.hostOnly): the hosts' dispatch refuses them. */
export const rpcHostOnly: ReadonlySet<string> = new Set(
  Object.entries(rpcMethods)
    .filter(([, spec]) => 'hostOnly' in spec && spec.hostOnly === true)
    .map(([name]) => name),
);

export type RpcInput<M extends RpcMethod> = z.input<RpcInputSchemas[M]>;

export type RpcOutputs = { [M in RpcMethod]: OutputOf<(typeof rpcMethods)[M]> };

/**
 * Errors cross the boundary as data: a stable code and a message fit to show a person, and for the codes of
 * src/shared/rpc-errors.ts their typed details (read them with rpcErrorDetails).
 */
export interface RpcError {
  code: DeskErrorCode;
  message: string;
  /** For the codes of rpc-errors.ts only: what the window needs to offer the next step. */
  details?: Record<string, unknown>;
}

export interface RpcClient {
  call<M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]>;
}

/** What core implements and the hosts (IPC, HTTP) dispatch to, after validating input. */
export type RpcHandlers = {
  [M in RpcMethod]: (input: z.output<RpcInputSchemas[M]>) => Promise<RpcOutputs[M]>;
};
