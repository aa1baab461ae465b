/**
 * YAML front matter for a report's Markdown file (the form Obsidian and similar tools read). Every string the
 * service wrote is hostile text: each is written as a double-quoted scalar with everything YAML treats
 * specially escaped (quotes, backslashes, line breaks, control and non-printable characters), so a colon,
 * a "#", a newline or a line of "---" inside it stays part of the value and cannot end the block.
 */
import { usdcText } from '../../shared/money';
import type { ReportRecord } from './report-record';

type Scalar = string | number | null;
type Value = Scalar | readonly string[];

// Half a surrogate pair is no character: JSON would write it as an escape a YAML reader refuses.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A double-quoted YAML scalar: JSON's escapes (valid YAML 1.2) plus what YAML does not print raw. */
export function yamlString(text: string): string {
  return JSON.stringify(text.replace(LONE_SURROGATE, '\ufffd')).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function yamlValue(value: Value): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string') return yamlString(value);
  return `[${value.map(yamlString).join(', ')}]`;
}

/** The front matter's fields, in the order they are written; a test reads them back against the library. */
export function frontMatterFields(
  record: ReportRecord,
  spentUnits: string,
  exportedAt: string,
): [string, Value][] {
  return [
    ['title', `@${record.username}: report of ${record.createdAt.slice(0, 10)}`],
    ['handle', record.handle],
    ['username', record.username],
    ['display_name', record.displayName],
    ['report_id', record.reportId],
    ['created', record.createdAt],
    ['period_from', record.dateRange?.from ?? null],
    ['period_to', record.dateRange?.to ?? null],
    ['model', record.model],
    ['post_count', record.postCount],
    ['service', record.serviceUrl],
    ['purchase_id', record.purchase?.id ?? null],
    ['purchased', record.purchase?.purchasedAt ?? null],
    ['paid_with', record.purchase?.paidWith ?? null],
    ['transaction', record.purchase?.txHash ?? null],
    ['spent_usdc', usdcText(spentUnits)],
    ['tags', record.tags],
    ['exported', exportedAt],
  ];
}

/** The block itself, "---" to "---", ready to put before the report's Markdown. */
export function frontMatter(record: ReportRecord, spentUnits: string, exportedAt: string): string {
  const lines = frontMatterFields(record, spentUnits, exportedAt).map(
    ([key, value]) => `${key}: ${yamlValue(value)}`,
  );
  return ['---', ...lines, '---', ''].join('\n');
}
