/**
 * `intel-desk mcp` as an MCP client sees it: the SDK's own Client over stdio, spawning the real bin entry
 * with a test stack's environment. The client answers elicitation with whatever the test says.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Stack } from '../../src/service/stack';
import { root, stackEnv } from '../cli/run-cli';

export interface McpSession {
  client: Client;
  /** Elicitation requests the server sent, in order. */
  asked: ElicitRequest['params'][];
  /** Log notifications the server sent (its data), in order. */
  logged: unknown[];
  /** How the client answers the next elicitation (default: approve). */
  answer: (params: ElicitRequest['params']) => ElicitResult;
  stderr: () => string;
  close(): Promise<void>;
}

export async function startMcp(
  stack: Stack,
  dataDir: string,
  args: string[],
  options: { elicitation?: boolean; env?: Record<string, string | undefined> } = {},
): Promise<McpSession> {
  const env = Object.fromEntries(
    Object.entries({ ...stackEnv(stack, dataDir), ...options.env }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'bin/intel-desk.mjs'), 'mcp', ...args],
    env,
    cwd: root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(
    { name: 'intel-desk-test', version: '1.0.0' },
    { capabilities: options.elicitation === false ? {} : { elicitation: { form: {} } } },
  );
  const session: McpSession = {
    client,
    asked: [],
    logged: [],
    answer: () => ({ action: 'accept', content: { approve: true } }),
    stderr: () => stderr,
    close: () => client.close(),
  };
  if (options.elicitation !== false) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      session.asked.push(request.params);
      return session.answer(request.params);
    });
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    session.logged.push(notification.params.data);
  });
  await client.connect(transport);
  return session;
}

/** The text parts of a tool's answer. */
export function texts(result: unknown): string[] {
  const content = (result as CallToolResult).content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

/** The first JSON part of a tool's answer, parsed. */
export function jsonPart<T>(result: unknown): T {
  const part = texts(result).find((t) => t.startsWith('{') || t.startsWith('['));
  if (part === undefined) throw new Error(`no JSON in ${JSON.stringify(result)}`);
  return JSON.parse(part) as T;
}
