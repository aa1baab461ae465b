/** library, read, export, purchases: the offline side (search is in commands-query.ts). */
import { formatUnitsUsd } from '../shared/money';
import { DeskError, type DeskCore } from '../core';
import type { ExportFormat } from '../shared/rpc';
import { count, escapeJsonControls, table, terminalText, UsageError, type Output } from './output';

/**
 * A library whose indexing pass is behind (the first run after an upgrade that fills new tables) is brought
 * up to date first, a step per page asked for, with its progress: the list printed is then the whole one.
 */
async function finishIndexing(desk: DeskCore, out: Output): Promise<void> {
  for (;;) {
    const { indexing } = await desk.handlers['library.list']({ limit: 1 });
    if (!indexing) return;
    const percent = Math.floor((indexing.indexed / Math.max(indexing.total, 1)) * 100);
    out.progress(
      `Indexing the library: ${percent}% (${indexing.indexed.toLocaleString('en-US')} of ${count(indexing.total, 'report')})`,
    );
  }
}

export async function library(
  desk: DeskCore,
  out: Output,
  handle?: string,
  limitFlag?: string,
): Promise<void> {
  const limit = limitFlag === undefined ? undefined : Number(limitFlag);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000))
    throw new UsageError(`--limit "${limitFlag}" is not a whole number from 1 to 1000`);
  await finishIndexing(desk, out);
  // A limit reads one page, not the whole library (1.5 s at 100k reports).
  const { items } = await desk.handlers['library.list']({
    ...(handle ? { handle } : {}),
    ...(limit === undefined ? {} : { limit }),
  });
  out.result(items, () =>
    items.length === 0
      ? handle
        ? `You own no reports of @${handle.replace(/^@/, '')}. \`intel-desk menu ${handle.replace(/^@/, '')}\` shows what it offers.`
        : 'The library is empty: `intel-desk list` shows the shelf, `intel-desk buy <handle>` buys reports.'
      : table(
          items.map((item) => ({
            id: item.id,
            // As the service spells the handle, and the shelf's name for it, like the app's Library.
            handle: `@${item.username}`,
            name: item.displayName ?? '',
            created: item.createdAt.slice(0, 10),
            model: item.model,
            posts: item.postCount,
          })),
          ['id', 'handle', 'name', 'created', 'model', 'posts'],
        ),
  );
}

export async function read(desk: DeskCore, out: Output, id: string): Promise<void> {
  let view;
  try {
    view = await desk.handlers['report.get']({ id });
  } catch (error) {
    if (error instanceof DeskError && error.code === 'report_not_owned') {
      const known = error.details['handle'];
      const remedy =
        typeof known === 'string'
          ? `Buy it with: intel-desk buy ${terminalText(known)} --ids ${terminalText(id)} --yes (check the price with \`quote\` first).`
          : `Buy it with: intel-desk buy <handle> --ids ${terminalText(id)} --yes (\`intel-desk menu <handle>\` lists a handle's reports; check the price with \`quote\` first).`;
      throw new DeskError(error.code, `${error.message} ${remedy}`, error.kind);
    }
    throw error;
  }
  const md = await desk.handlers['report.export']({ id, format: 'md' });
  out.result(view, () => md.content);
}

export async function exportReport(
  desk: DeskCore,
  out: Output,
  id: string,
  format: ExportFormat,
): Promise<void> {
  // Checked before the export is made: PDF bytes on a terminal are noise at best, control sequences at worst.
  if (format === 'pdf' && !out.json && process.stdout.isTTY) {
    throw new UsageError(
      `refusing to write PDF bytes to a terminal; redirect to a file: intel-desk export ${terminalText(id)} --format pdf > report.pdf`,
    );
  }
  const file = await desk.handlers['report.export']({ id, format });
  if (out.json) out.result(file, () => '');
  else if (file.encoding === 'base64') process.stdout.write(Buffer.from(file.content, 'base64'));
  else {
    const text = format === 'json' ? escapeJsonControls(file.content) : terminalText(file.content);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

export async function purchases(desk: DeskCore, out: Output): Promise<void> {
  const open = (await desk.handlers['purchases.list']({})).purchases.filter(
    (p) => p.state === 'in_doubt' || p.state === 'sent' || p.state === 'signed',
  );
  if (open.length > 0) out.progress(`checking ${count(open.length, 'unfinished purchase')}…`);
  const view = await desk.handlers['purchases.reconcile']({});
  out.result(view, () =>
    [
      `spent today: ${formatUnitsUsd(view.spentTodayUnits)} of ${formatUnitsUsd(view.dailyCapUnits)}`,
      table(
        view.purchases.map((p) => ({
          when: p.createdAt.slice(0, 19).replace('T', ' '),
          handle: p.handle,
          reports: p.reportCount,
          charged: p.movedUnits === null ? `up to ${formatUnitsUsd(p.amount)}` : formatUnitsUsd(p.movedUnits),
          state: p.state,
          purchase: p.id,
          transaction: p.txHash ?? '',
          note:
            p.waitingFor?.summary ??
            (p.restored === 'unconfirmed'
              ? 'restored; not confirmed on chain, outside the caps'
              : p.state === 'completed'
                ? ''
                : (p.error ?? '')),
        })),
        ['when', 'handle', 'reports', 'charged', 'state', 'purchase', 'transaction', 'note'],
      ),
      view.purchases.length > 0 ? "a purchase's receipt: intel-desk receipt <purchase or transaction>" : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
}
