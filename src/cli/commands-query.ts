/** search (the query language of docs/search.md), tag and note: asking the library and labelling it. */
import { DeskError, type DeskCore } from '../core';
import type { ReportLabels } from '../shared/rpc';
import { rpcErrorDetails } from '../shared/rpc-errors';
import { terminalText, UsageError, type Output } from './output';
import { didYouMean } from './suggest';

/** A syntax error shows the query with a caret under the column it names. */
function pointedAt(error: unknown, text: string): unknown {
  if (!(error instanceof DeskError)) return error;
  const where = rpcErrorDetails({ code: error.code, details: error.details }, 'search_syntax');
  if (!where) return error;
  const chars = [...text.replaceAll('\n', ' ')];
  const line = [...terminalText(chars.join(''))];
  // The column counts the query's characters; an escape before it widens what is shown by its length.
  const before = [...terminalText(chars.slice(0, where.column - 1).join(''))].length;
  const caret = `${' '.repeat(before)}${'^'.repeat(where.length)}`;
  const shown = line.length <= 200 ? `\n  ${line.join('')}\n  ${caret}` : '';
  return new DeskError(error.code, `${error.message}${shown}`, error.kind, error.details);
}

export async function search(
  desk: DeskCore,
  out: Output,
  text: string,
  handle: string | undefined,
): Promise<void> {
  let view;
  try {
    view = await desk.handlers['library.search']({ text, ...(handle ? { handle } : {}), limit: 200 });
  } catch (error) {
    throw pointedAt(error, text);
  }
  const { hits } = view;
  out.result(hits, () =>
    hits.length === 0
      ? 'no match'
      : hits
          .map(
            (hit) =>
              `${hit.id}  @${hit.username}  ${hit.createdAt.slice(0, 10)}${hit.tags.length > 0 ? `  #${hit.tags.join(' #')}` : ''}\n  ${hit.snippet.split('\u0001').join('[').split('\u0002').join(']')}`,
          )
          .join('\n'),
  );
}

const labelsText = (labels: ReportLabels) =>
  [
    `${labels.id}  tags: ${labels.tags.length > 0 ? labels.tags.join(', ') : '(none)'}`,
    labels.note ? `note: ${labels.note}` : 'note: (none)',
  ].join('\n');

export async function tag(desk: DeskCore, out: Output, id: string, action: string, tagText: string) {
  if (action !== 'add' && action !== 'remove')
    throw new UsageError(
      `tag takes add or remove: tag <reportId> add|remove <tag>.${didYouMean(action, ['add', 'remove'])}`,
    );
  const labels = await desk.handlers['report.tag']({ id, action, tag: tagText });
  out.result(labels, () => labelsText(labels));
}

/** With text, sets the note; with --clear, removes it; with neither, shows it. */
export async function note(desk: DeskCore, out: Output, id: string, text: string, clear: boolean) {
  if (clear && text !== '') throw new UsageError('give note text or --clear, not both');
  const labels =
    clear || text !== ''
      ? await desk.handlers['report.note']({ id, note: clear ? '' : text })
      : await desk.handlers['report.labels']({ id });
  out.result(labels, () => labelsText(labels));
}
