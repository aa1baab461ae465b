/** mcp (the MCP server, src/mcp) and approve: the person's word on what an assistant asked to buy. */
import { formatUnitsUsd } from '../shared/money';
import type { PurchaseRequestView } from '../shared/rpc';
import type { DeskCore } from '../core';
import { table, UsageError, type Output } from './output';
import { prepareSigner, type SignerFlags } from './commands-wallet';
import { usdArgument } from './usd-argument';

export interface McpFlags extends SignerFlags {
  'allow-spend'?: string | undefined;
  list?: boolean | undefined;
  decline?: boolean | undefined;
  'over-cap'?: boolean | undefined;
  'accept-payee'?: boolean | undefined;
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

const requestRows = (requests: PurchaseRequestView[]) =>
  requests.map((r) => ({
    id: r.id,
    asked: r.createdAt.slice(0, 16).replace('T', ' '),
    handle: `@${r.handle}`,
    reports: r.reportCount,
    price: formatUnitsUsd(r.amount),
    state: r.state,
    reason: r.reason ?? '',
  }));

/** `approve --list`, `approve <id>` (pays through every cap and pin) or `approve <id> --decline`. */
export async function approve(desk: DeskCore, out: Output, flags: McpFlags, id: string | undefined) {
  if (flags.list || id === undefined) {
    if (!flags.list)
      throw new UsageError('missing purchase request id; `intel-desk approve --list` lists them');
    const { requests } = await desk.handlers['purchaseRequests.list']({ state: 'pending' });
    out.result(requests, () =>
      requests.length === 0
        ? 'no purchase request is waiting'
        : table(requestRows(requests), ['id', 'asked', 'handle', 'reports', 'price', 'state', 'reason']),
    );
    return;
  }
  if (flags.decline) {
    const declined = await desk.handlers['purchaseRequest.decline']({ id });
    out.result(declined, () => `declined ${declined.id}; nothing was paid`);
    return;
  }
  const request = await desk.handlers['purchaseRequest.get']({ id });
  const cannotSign = await prepareSigner(desk, flags, { to: 'pay', command: 'approve' });
  if (cannotSign) throw cannotSign;
  out.progress(
    `approving ${request.id}: ${request.reportCount} report(s) of @${request.handle}, at most ${formatUnitsUsd(request.amount)}…`,
  );
  const { outcome } = await desk.handlers['purchaseRequest.approve']({
    id,
    acceptOverCap: flags['over-cap'] ?? false,
    acceptPayToChange: flags['accept-payee'] ?? false,
  });
  out.result(outcome, () => {
    if (outcome.status === 'completed' && outcome.purchase.paidWith === 'library_secret')
      return `read ${outcome.purchase.reportIds.length} report(s) with the library secret; nothing was paid`;
    if (outcome.status === 'completed')
      return `bought ${outcome.purchase.reportIds.length} report(s) for ${formatUnitsUsd(outcome.purchase.amount)}; receipt ${outcome.purchase.txHash ?? 'none'}`;
    if (outcome.status === 'in_doubt') return `IN DOUBT: ${outcome.message}`;
    if (outcome.status === 'failed') return `FAILED: ${outcome.message}`;
    return 'the wallet must sign in the app';
  });
  if (outcome.status === 'failed') process.exitCode = 4;
  if (outcome.status === 'in_doubt') process.exitCode = 5;
}
