/**
 * The MCP server reaches core the way the window does: through the contract's dispatch, so every input is
 * checked by the same zod schema and every refusal leaves as a code and a message, never a stack trace.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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

/**
 * Core's messages name the window's or the CLI's next step; an assistant's is an argument, or the person.
 * Only codes whose remedy differs here are rewritten.
 */
const REMEDIES: Record<string, (message: string) => string> = {
  all_owned: (message) =>
    `${message.replace(/ Buying them again needs an explicit choice\.$/, '')} To buy them again, set includeOwned: true.`,
  ...Object.fromEntries(
    ['over_purchase_cap', 'over_daily_cap', 'over_handle_budget'].map((code) => [
      code,
      (message: string) =>
        message.replace(
          /confirm again to go over it\.$/,
          'only the person can go over it, with `intel-desk approve <request id> --over-cap`.',
        ),
    ]),
  ),
};

export type CoreCall = <M extends RpcMethod>(method: M, input: RpcInput<M>) => Promise<RpcOutputs[M]>;

export function coreCaller(desk: DeskCore, logError: (error: unknown) => void): CoreCall {
  return async <M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]> => {
    const result = await dispatch(desk.handlers, method, input, logError);
    if (!result.ok) {
      const { code, message } = result.error;
      throw new ToolRefusal(code, REMEDIES[code]?.(message) ?? message);
    }
    // dispatch answers with the handler's own value: the contract types it as RpcOutputs[M].
    return result.value as RpcOutputs[M];
  };
}

/**
 * Outside a tool (a resource read, a prompt) a refusal from core is the client's mistake (no such report, a
 * handle the service does not know): said as invalid params, with its message and code.
 */
export async function asInvalidParams<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ToolRefusal)
      throw new McpError(ErrorCode.InvalidParams, `${error.message} [${error.code}]`);
    throw error;
  }
}
