/** mcp: the MCP server (src/mcp); `approve` (commands-approve.ts) is the person's word on what it asks to buy. */
import type { DeskCore } from '../core';
import { prepareSigner, type SignerFlags } from './commands-wallet';
import { usdArgument } from './usd-argument';

export interface McpFlags extends SignerFlags {
  'allow-spend'?: string | undefined;
  list?: boolean | undefined;
  decline?: boolean | undefined;
  'over-cap'?: boolean | undefined;
  'accept-payee'?: boolean | undefined;
  yes?: boolean | undefined;
}

/** --allow-spend in USD ("1.00", "$1") as token base units; 0 when not given. */
export function allowSpend(raw: string | undefined): bigint {
  return raw === undefined ? 0n : usdArgument(raw, '--allow-spend');
}

export async function mcp(desk: DeskCore, flags: McpFlags, dataDir: string): Promise<void> {
  const allowSpendUnits = allowSpend(flags['allow-spend']);
  // Unlocked now, before the client connects: the person's passphrase never passes through the assistant.
  const cannotSign =
    allowSpendUnits > 0n ? await prepareSigner(desk, flags, { to: 'pay', command: 'mcp' }) : null;
  if (cannotSign)
    process.stderr.write(
      `intel-desk mcp: purchases cannot be approved in this session (${cannotSign.message}); \`intel-desk approve\` still can.\n`,
    );
  const { runMcpServer } = await import('../mcp/server');
  await runMcpServer(desk, { dataDir, allowSpendUnits, cannotSign: cannotSign?.message ?? null });
}
