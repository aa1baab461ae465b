/**
 * The one place the hosts (Electron IPC, HTTP, the MCP server) turn an untrusted method name and input into a
 * core call: the method must be in the contract and open to a page (not hostOnly), and whatever the handler
 * throws leaves as a code and a message fit to show a person (with the typed details of
 * src/shared/rpc-errors.ts), never as a stack trace. The input is parsed once, by core's door
 * (src/core/handlers/door.ts), which every handler of a DeskCore passes through.
 */
import { DeskError } from '../core/base/errors';
import { isRpcMethod } from '../core/handlers/door';
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

/** `handlers` are core's own (DeskCore's, or a core thread's), each checking its input at the door. */
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
    // The union of handler signatures collapses to an intersection; the door checks the input's type.
    const handler = handlers[method] as (value: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(input) };
  } catch (error) {
    return { ok: false, error: toRpcError(error, log) };
  }
}
