/**
 * `intel-desk approve`: the person's word on a purchase an assistant asked for (decisions 0027 and 0039). It
 * shows what would be paid, to whom and on which network, and asks at the terminal; without a terminal it
 * pays only with --yes. Going over a cap needs the wallet passphrase typed at the terminal, never from the
 * environment, so a program the assistant runs cannot go over one on its own.
 */
import { formatUnitsUsd } from '../shared/money';
import type { PurchaseRequestView } from '../shared/rpc';
import type { DeskCore } from '../core';
import { count, table, terminalText, UsageError, type Output } from './output';
import { prepareSigner, sessionKey } from './commands-wallet';
import type { McpFlags } from './commands-mcp';
import { canPrompt } from './passphrase-prompt';
import { confirmAtTerminal } from './confirm-prompt';
import { typedPassphrase } from './consent';

const requestRows = (requests: PurchaseRequestView[]) =>
  requests.map((r) => ({
    id: r.id,
    asked: r.createdAt.slice(0, 16).replace('T', ' '),
    handle: `@${r.handle}`,
    reports: r.reportCount,
    price: formatUnitsUsd(r.amount),
    payee: r.payTo,
    network: r.network,
    state: r.state,
    reason: r.reason ?? '',
  }));

/** What the person approves, every term of it, on stderr before they are asked. */
export function requestTerms(request: PurchaseRequestView): string {
  const each = request.unitPriceUnits === null ? '' : ` (${formatUnitsUsd(request.unitPriceUnits)} a report)`;
  const ids = request.reportIds ?? [];
  const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
  return [
    `Purchase request ${request.id}, asked ${request.createdAt.slice(0, 16).replace('T', ' ')} UTC by an assistant:`,
    `  buy      ${count(request.reportCount, 'report')} of @${request.handle}${shown ? `: ${shown}` : ''}`,
    `  price    ${formatUnitsUsd(request.amount)}${each}`,
    `  service  ${request.serviceUrl}`,
    `  network  ${request.network}${request.asset ? `, token ${request.asset}` : ''}`,
    `  payee    ${request.payTo}`,
    request.reason ? `  reason   "${request.reason}" (the assistant's words)` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

async function list(desk: DeskCore, out: Output): Promise<void> {
  const { requests } = await desk.handlers['purchaseRequests.list']({ state: 'pending' });
  out.result(requests, () =>
    requests.length === 0
      ? 'no purchase request is waiting'
      : table(requestRows(requests), [
          'id',
          'asked',
          'handle',
          'reports',
          'price',
          'payee',
          'network',
          'state',
          'reason',
        ]),
  );
}

/**
 * Whether the person said yes: at a terminal they are asked (unless --yes); without one, --yes is the
 * only yes. Going over a cap is refused before anything else without a terminal to type the passphrase at.
 */
async function personSaysYes(request: PurchaseRequestView, flags: McpFlags): Promise<boolean> {
  const atTerminal = canPrompt();
  if (flags['over-cap'] && !atTerminal)
    throw new UsageError(
      'approve --over-cap asks for the wallet passphrase at a terminal (never from the environment); run it there. Nothing was paid',
    );
  if (flags.yes) return true;
  if (!atTerminal)
    throw new UsageError(
      `approve pays: run it at a terminal to see the terms and confirm, or add --yes to pay ${formatUnitsUsd(request.amount)} to ${request.payTo} on ${request.network} without asking. Nothing was paid`,
    );
  return confirmAtTerminal(
    `Pay ${formatUnitsUsd(request.amount)} to ${request.payTo} on ${request.network}? Type yes to approve: `,
  );
}

/** `approve --list`, `approve <id>` (pays through every cap and pin) or `approve <id> --decline`. */
export async function approve(desk: DeskCore, out: Output, flags: McpFlags, id: string | undefined) {
  if (flags.list || id === undefined) {
    if (!flags.list)
      throw new UsageError('missing purchase request id; `intel-desk approve --list` lists them');
    return list(desk, out);
  }
  if (flags.decline) {
    const declined = await desk.handlers['purchaseRequest.decline']({ id });
    out.result(declined, () => `declined ${declined.id}; nothing was paid`);
    return;
  }
  const request = await desk.handlers['purchaseRequest.get']({ id });
  // One that is not pending is refused by the approval itself, in its words, before anything is asked.
  if (request.state === 'pending') {
    process.stderr.write(`${terminalText(requestTerms(request))}\n`);
    if (!(await personSaysYes(request, flags))) {
      process.stderr.write(`not approved: nothing was paid, and ${request.id} still waits\n`);
      process.exitCode = 1;
      return;
    }
  }
  const status = await desk.handlers['wallet.status']({});
  const keystoreSigns = sessionKey(flags) === null && status.kind === 'keystore';
  // Typed now, and unlocks the wallet too when it is locked: asked once.
  const passphrase =
    flags['over-cap'] && keystoreSigns ? await typedPassphrase('go over a cap or a budget') : undefined;
  if (passphrase !== undefined && !status.unlocked) await desk.handlers['wallet.unlock']({ passphrase });
  const cannotSign = await prepareSigner(desk, flags, { to: 'pay', command: 'approve' });
  if (cannotSign) throw cannotSign;
  out.progress(
    `approving ${request.id}: ${count(request.reportCount, 'report')} of @${request.handle}, at most ${formatUnitsUsd(request.amount)}…`,
  );
  const { outcome } = await desk.handlers['purchaseRequest.approve']({
    id,
    acceptOverCap: flags['over-cap'] ?? false,
    ...(passphrase === undefined ? {} : { passphrase }),
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
