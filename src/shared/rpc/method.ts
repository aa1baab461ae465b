/**
 * How one RPC method is declared: its input schema, what it reads and changes, and its output type, together,
 * so a new method cannot leave one of them out.
 */
import type { z } from 'zod';

/** What the window shows, by kind: what a method reads and what it changes are named in these. */
export type RpcTopic =
  | 'app'
  | 'shelf'
  | 'menu'
  | 'quote'
  | 'purchases'
  | 'library'
  | 'wallet'
  | 'settings'
  | 'dossier'
  | 'searches'
  | 'backups';

/**
 * `reads` and `changes` drive the window's refreshes: every query whose method reads a topic that a finished
 * call (or an event from core, see events.ts) changed is asked again, in one place, so no screen keeps its own
 * list.
 */
export interface MethodSpec<Input extends z.ZodType, Output> {
  input: Input;
  reads: readonly RpcTopic[];
  changes: readonly RpcTopic[];
  /**
   * Only for callers inside the desk's own processes (the CLI, Electron's main process): a page's call, which
   * reaches core through a host's dispatch, is refused. For input a page must not choose, such as a path.
   */
  hostOnly?: true;
  /** Never set: it only carries the output type to the contract's index. */
  output?: () => Output;
}

/** `method<Output>()({ input, reads, changes })`: the output is named, the input inferred from its schema. */
export function method<Output>() {
  return <Input extends z.ZodType>(spec: MethodSpec<Input, Output>): MethodSpec<Input, Output> => spec;
}

export type OutputOf<Spec> = Spec extends MethodSpec<z.ZodType, infer Output> ? Output : never;
