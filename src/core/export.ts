/** A snapshot as Markdown for sharing: sections in order, model text kept as text. */
import type { IntelReportSnapshot } from '../shared/wire';

export function humanize(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}

/** Model text could contain Markdown or HTML; escape what would change the document's structure. */
function escapeText(text: string): string {
  return text.replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;')).replace(/^(#{1,6}\s)/gm, '\\$1');
}

/** Deeper values are left to the JSON export: recursion past this would only produce noise (or overflow). */
export const MAX_EXPORT_DEPTH = 40;
export const TOO_DEEP = `nested deeper than ${MAX_EXPORT_DEPTH} levels; see the JSON export`;

function renderValue(value: unknown, depth: number): string {
  if (depth > MAX_EXPORT_DEPTH) return `_${TOO_DEEP}_`;
  if (value === null || value === undefined) return '_none_';
  if (typeof value === 'string') return escapeText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    return value
      .map((item) => `${'  '.repeat(depth)}- ${renderValue(item, depth + 1).trimStart()}`)
      .join('\n');
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => {
      const rendered = renderValue(item, depth + 1);
      return typeof item === 'object' && item !== null
        ? `${'  '.repeat(depth)}- **${humanize(key)}**:\n${rendered}`
        : `${'  '.repeat(depth)}- **${humanize(key)}**: ${rendered}`;
    })
    .join('\n');
}

export function snapshotMarkdown(handle: string, snapshot: IntelReportSnapshot): string {
  const lines = [
    `# @${handle}: report of ${snapshot.createdAt.slice(0, 10)}`,
    '',
    `- Report id: ${snapshot.id}`,
    `- Created: ${snapshot.createdAt}`,
    `- Model: ${escapeText(snapshot.model)}`,
    `- Posts analysed: ${snapshot.meta.postCount ?? 'unknown'}`,
    snapshot.meta.dateRange
      ? `- Period: ${snapshot.meta.dateRange.from} to ${snapshot.meta.dateRange.to}`
      : '- Period: unknown',
    '',
  ];
  for (const [section, text] of Object.entries(snapshot.narrative)) {
    lines.push(
      `## ${humanize(section)}`,
      '',
      typeof text === 'string' ? escapeText(text) : renderValue(text, 0),
      '',
    );
  }
  lines.push(
    '## Change since the previous report',
    '',
    snapshot.changeSummary === null
      ? 'This is the first (baseline) report.'
      : renderValue(snapshot.changeSummary, 0),
    '',
  );
  lines.push('## Analytics', '', renderValue(snapshot.analytics, 0), '');
  return lines.join('\n');
}
