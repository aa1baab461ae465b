/**
 * How tools answer: text for the assistant, JSON where it is data (also as structuredContent), refusals as tool
 * errors with their code.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { escapeJsonControls } from '../host/text/terminal';
import { ToolRefusal } from './call';

export const text = (...parts: string[]): CallToolResult => ({
  content: parts.map((part) => ({ type: 'text', text: part })),
});

/** An answer whose data is also structuredContent, checked against the tool's outputSchema. */
export const structured = <T extends Record<string, unknown>>(
  data: T,
  ...parts: string[]
): CallToolResult => ({
  ...text(...parts),
  structuredContent: data,
});

/** The shape an outputSchema declares, as the value a tool fills in. */
export type Out<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

/** JSON with control and invisible characters escaped: the value is unchanged, nothing hides in it. */
export const json = (value: unknown): string => escapeJsonControls(JSON.stringify(value, null, 2));

export function refusal(error: unknown): CallToolResult {
  if (error instanceof ToolRefusal) return { isError: true, ...text(`${error.message} [${error.code}]`) };
  throw error;
}

/** A tool's body, with core's refusals said as tool errors the assistant can read and act on. */
export function guarded<A>(body: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await body(args);
    } catch (error) {
      return refusal(error);
    }
  };
}
