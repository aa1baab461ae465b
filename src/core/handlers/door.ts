/**
 * Core's one door: every handler checks its input against the contract (src/shared/rpc/) whoever calls it,
 * the window through a host's dispatch, the CLI, the MCP server or a test. A method not in the contract, or
 * input that does not fit it, is refused here with a message fit to show a person.
 */
import { rpcInputs, type RpcHandlers, type RpcInput, type RpcMethod } from '../../shared/rpc';
import { DeskError } from '../base/errors';

export function isRpcMethod(name: string): name is RpcMethod {
  return Object.hasOwn(rpcInputs, name);
}

/** The method's input as the contract declares it; invalid_input, naming where it does not fit, otherwise. */
export function checkedInput<M extends RpcMethod>(method: M, input: unknown): RpcInput<M> {
  const parsed = rpcInputs[method].safeParse(input ?? {});
  if (parsed.success) return parsed.data as RpcInput<M>;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
  throw new DeskError(
    'invalid_input',
    `That request was not valid${where}: ${issue?.message ?? ''}`,
    'usage',
  );
}

/** The handlers behind the door: each checks its input before the domain code sees it. */
export function checkedHandlers(handlers: RpcHandlers): RpcHandlers {
  const checked: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const method of Object.keys(rpcInputs) as RpcMethod[]) {
    // The union of handler signatures collapses to an intersection; checkedInput fixed the input's type.
    const handler = handlers[method] as (input: unknown) => Promise<unknown>;
    checked[method] = async (input) => handler(checkedInput(method, input));
  }
  return checked as unknown as RpcHandlers;
}
