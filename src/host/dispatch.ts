/**
 * The one place both hosts (Electron IPC, HTTP) turn an untrusted method name and input into a core call:
 * the method must be in the contract and open to a page (not hostOnly), the input must pass its zod schema (core's door, src/core/handlers/door.ts,
 * checks it the same way for any handlers given), and whatever the handler throws leaves as a code and a
 * message fit to show a person (with the typed details of src/shared/rpc-errors.ts), never as a stack trace.
 */
import { DeskError } from '../core/base/errors';
import { checkedInput, isRpcMethod } from '../core/handlers/door';
import { rpcHostOnly, type RpcError, type RpcHandlers } from '../shared/rpc';
import { crossingDetails } from '../shared/rpc-errors';

export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: RpcError };

export { isRpcMethod };

export function toRpcError(error: unknown, log: (error: unknown) => void): RpcError {
  if (error instanceof DeskError) {
    // Only the contract's typed details cross; anything else a DeskError holds stays in core.
    const details = crossingDetails(error.code, error.details);
    return { code: error.code, message: error.message, ...(details ? { details } : {}) };
  }
  log(error);
  return { code: 'internal', message: 'Something went wrong inside Intel Desk; the details are in the log.' };
}

export async function dispatch(
  handlers: RpcHandlers,
  method: string,
  input: unknown,
  log: (error: unknown) => void = (error) => console.error(error),
): Promise<DispatchResult> {
  if (!isRpcMethod(method)) {
    return { ok: false, error: { code: 'unknown_method', message: `Intel Desk has no action "${method}".` } };
  }
  if (rpcHostOnly.has(method)) {
    return {
      ok: false,
      error: {
        code: 'forbidden',
        message: `"${method}" is not open to the window: Intel Desk itself asks it.`,
      },
    };
  }
  try {
    // The union of handler signatures collapses to an intersection; checkedInput fixed the input's type.
    const handler = handlers[method] as (value: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(checkedInput(method, input)) };
  } catch (error) {
    return { ok: false, error: toRpcError(error, log) };
  }
}
