/**
 * The one place both hosts (Electron IPC, HTTP) turn an untrusted method name and input into a core call:
 * the method must be in the contract, the input must pass its zod schema, and whatever the handler throws
 * leaves as a code and a message fit to show a person (with the typed details of src/shared/rpc-errors.ts),
 * never as a stack trace.
 */
import { DeskError } from '../core/errors';
import { rpcInputs, type RpcError, type RpcHandlers, type RpcMethod } from '../shared/rpc';
import { crossingDetails } from '../shared/rpc-errors';

export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: RpcError };

export function isRpcMethod(name: string): name is RpcMethod {
  return Object.hasOwn(rpcInputs, name);
}

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
  const parsed = rpcInputs[method].safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    return {
      ok: false,
      error: {
        code: 'invalid_input',
        message: `That request was not valid${where}: ${issue?.message ?? ''}`,
      },
    };
  }
  try {
    // The union of handler signatures collapses to an intersection; the schema above fixed the input's type.
    const handler = handlers[method] as (value: typeof parsed.data) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    return { ok: false, error: toRpcError(error, log) };
  }
}
