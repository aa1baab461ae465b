/** A snapshot as Markdown for sharing: sections in order, model text kept as text. */
import type { IntelReportSnapshot } from '../../shared/wire';
import { oneLine, stripControls } from './plain-text';
import {
  analyticsFigures,
  figureText,
  readableDate,
  seriesDate,
  type AnalyticsFigure,
} from '../../shared/analytics-shape';

export function humanize(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}

const SAFE_LINK_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * Report text is the service's: anything in it may be hostile. Every interpolated field goes through here, so
 * it stays text in any Markdown viewer: HTML and entities are escaped, brackets cannot open a link, an image
 * or a reference definition, and a URL scheme that runs code cannot be picked up by a lax linkifier.
 */
function escapeText(text: string): string {
  return stripControls(text)
    .replace(/[\\&<>[\]]/g, (c) => ESCAPES[c] ?? c)
    .replace(/((?:java|vb)\s*script|data\s*:\s*[a-z-]+\/[a-z0-9.+-]+)\s*:?/gi, (match) =>
      match.replaceAll(':', '&#58;'),
    )
    .replace(/^(#{1,6}\s)/gm, '\\$1');
}
const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '[': '\\[',
  ']': '\\]',
};

/** A field that must stay on one line: an id, a date, a name, a key. */
const field = (value: unknown) => escapeText(oneLine(String(value)));

/** An http(s) URL fit to put in a Markdown link target, or null. */
function safeHref(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (!SAFE_LINK_PROTOCOLS.has(url.protocol)) return null;
  return url.href.replace(/[()<>"'`\s\\[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `[label](target "title")` and `![alt](target)`; a target may hold one level of balanced parentheses. */
const MARKDOWN_LINK =
  /(!?)\[([^[\]\n]{0,1000})\]\(\s*<?((?:[^()\s<>]|\([^()\s<>]{0,200}\)){0,2000})>?(?:\s+"[^"\n]*")?\s*\)/g;

/**
 * Model text as Markdown: http(s) links stay links; remote images are dropped (a viewer would fetch them, telling
 * the sender who read the report and when) and so are links to any other scheme, keeping their words.
 */
function markdownText(text: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    parts.push(escapeText(text.slice(at, match.index)));
    at = match.index + match[0].length;
    const [, bang, label = '', target = ''] = match;
    const href = bang ? null : safeHref(target);
    if (bang) parts.push(escapeText(label ? `(image not included: ${label})` : '(image not included)'));
    else if (href) parts.push(`[${escapeText(oneLine(label))}](${href})`);
    else parts.push(escapeText(label));
  }
  parts.push(escapeText(text.slice(at)));
  return parts.join('');
}

/** Deeper values are left to the JSON export: recursion past this would only produce noise (or overflow). */
export const MAX_EXPORT_DEPTH = 40;
export const TOO_DEEP = `nested deeper than ${MAX_EXPORT_DEPTH} levels; see the JSON export`;

function renderValue(value: unknown, depth: number): string {
  if (depth > MAX_EXPORT_DEPTH) return `_${TOO_DEEP}_`;
  if (value === null || value === undefined) return '_none_';
  if (typeof value === 'string') return markdownText(value);
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
        ? `${'  '.repeat(depth)}- **${field(humanize(key))}**:\n${rendered}`
        : `${'  '.repeat(depth)}- **${field(humanize(key))}**: ${rendered}`;
    })
    .join('\n');
}

/** Where an exported copy came from: the purchase that delivered it, as its receipt line. */
export interface Provenance {
  serviceUrl: string;
  purchasedAt: string;
  txHash: string | null;
  paidWithSecret: boolean;
}

/** The person's own tags and note, carried into exports. */
export interface ExportLabels {
  tags: string[];
  note: string;
}

/** Whom a report is about: the handle as the service spells it, and the display name the shelf gives it. */
export interface ExportSubject {
  username: string;
  displayName: string | null;
}

/** "Ada Quispe (@AdaQuispe51)", or "@AdaQuispe51" when the shelf names no one. */
export function subjectTitle(subject: ExportSubject): string {
  const name = subject.displayName?.trim();
  return name ? `${name} (@${subject.username})` : `@${subject.username}`;
}

export function provenanceLine(p: Provenance): string {
  const how = p.paidWithSecret
    ? 'read with the library secret'
    : p.txHash
      ? `paid in transaction ${p.txHash}`
      : 'paid (no transaction recorded)';
  return `Bought from ${p.serviceUrl} on ${readableDate(p.purchasedAt)}, ${how}.`;
}

const BAR_WIDTH = 20;

/** A bar of block characters, eighths included, so a chart reads in any Markdown viewer or terminal. */
/** A bar as long as the value's size; a negative value's bar starts with a minus, so it is never blank. */
function textBar(value: number, max: number): string {
  if (max <= 0 || value === 0) return '';
  const eighths = Math.round((Math.abs(value) / max) * BAR_WIDTH * 8);
  const bar =
    '█'.repeat(Math.floor(eighths / 8)) + (['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8] ?? '');
  return value < 0 ? `−${bar}` : bar;
}

function figureMarkdown(figure: AnalyticsFigure): string[] {
  const title = `### ${field(humanize(figure.name))}`;
  if (figure.kind === 'value') return [title, '', figureText(figure.value, false), ''];
  if (figure.kind === 'other') return [title, '', renderValue(figure.value, 0), ''];
  const rows =
    figure.kind === 'bars'
      ? figure.points.map((p) => ({
          label: field(figure.origin === 'record' ? humanize(p.label) : p.label),
          value: p.value,
          text: figureText(p.value, figure.percent),
        }))
      : figure.points.map((p) => ({
          label: figure.dates ? seriesDate(p.x) : `${field(humanize(figure.xLabel))} ${p.x}`,
          value: p.y,
          text: figureText(p.y, false),
        }));
  const max = Math.max(0, ...rows.map((r) => Math.abs(r.value)));
  const valueHeading =
    figure.kind === 'bars' ? (figure.percent ? 'Share' : 'Value') : field(humanize(figure.yLabel));
  return [
    title,
    '',
    `| ${figure.kind === 'bars' ? 'Label' : field(humanize(figure.xLabel))} | ${valueHeading} | |`,
    '| --- | ---: | --- |',
    ...rows.map((r) => `| ${r.label.replaceAll('|', '\\|')} | ${r.text} | ${textBar(r.value, max)} |`),
    '',
  ];
}

export function snapshotMarkdown(
  subject: ExportSubject,
  snapshot: IntelReportSnapshot,
  provenance: Provenance | null = null,
  labels: ExportLabels | null = null,
): string {
  const range = snapshot.meta.dateRange;
  const lines = [
    `# ${field(subjectTitle(subject))}: report of ${field(readableDate(snapshot.createdAt))}`,
    '',
    ...(provenance ? [`_${field(provenanceLine(provenance))}_`, ''] : []),
    `- Report id: ${field(snapshot.id)}`,
    `- Created: ${field(readableDate(snapshot.createdAt))}`,
    `- Model: ${field(snapshot.model)}`,
    `- Posts analysed: ${field(snapshot.meta.postCount ?? 'unknown')}`,
    range
      ? `- Period: ${field(readableDate(range.from))} to ${field(readableDate(range.to))}`
      : '- Period: unknown',
    ...(labels && labels.tags.length > 0 ? [`- Tags: ${labels.tags.map(field).join(', ')}`] : []),
    '',
    ...(labels && labels.note.trim() !== '' ? ['## My notes', '', markdownText(labels.note), ''] : []),
  ];
  for (const [section, text] of Object.entries(snapshot.narrative)) {
    lines.push(
      `## ${field(humanize(section))}`,
      '',
      typeof text === 'string' ? markdownText(text) : renderValue(text, 0),
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
  lines.push('## Analytics', '', ...analyticsFigures(snapshot.analytics).flatMap(figureMarkdown));
  return lines.join('\n');
}
