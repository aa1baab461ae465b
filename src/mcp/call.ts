/**
 * The MCP server reaches core the way the window does: through the contract's dispatch, so every input is
 * checked by the same zod schema and every refusal leaves as a code and a message, never a stack trace.
 */
import type { DeskCore } from '../core';
import { dispatch } from '../host/dispatch';
import type { RpcInput, RpcMethod, RpcOutputs } from '../shared/rpc';

/** A refusal from core (or a check of this server's own), said to the assistant as a tool error. */
export class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

export type CoreCall = <M extends RpcMethod>(method: M, input: RpcInput<M>) => Promise<RpcOutputs[M]>;

export function coreCaller(desk: DeskCore, logError: (error: unknown) => void): CoreCall {
  return async <M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]> => {
    const result = await dispatch(desk.handlers, method, input, logError);
    if (!result.ok) throw new ToolRefusal(result.error.code, result.error.message);
    // dispatch answers with the handler's own value: the contract types it as RpcOutputs[M].
    return result.value as RpcOutputs[M];
  };
}
