/**
 * "Cite this report": CSL-JSON (what Zotero, Pandoc and citeproc read) and BibTeX. The service is the author
 * (it wrote the report), the handle is the subject; the report id, model and purchase go in the note so a
 * reader can tell which copy was cited. Service text is hostile: BibTeX escapes every character TeX treats
 * specially, so a brace cannot close a field early, and CSL-JSON is JSON.
 */
import { oneLine } from './plain-text';
import { safeFileName, type ReportRecord } from './report-record';

const title = (record: ReportRecord) =>
  `Intelligence report on @${record.username}${record.displayName ? ` (${record.displayName})` : ''}`;

const serviceName = (record: ReportRecord) => {
  try {
    return new URL(record.serviceUrl).host;
  } catch {
    return record.serviceUrl;
  }
};

const note = (record: ReportRecord) =>
  [
    `Report ${record.reportId}`,
    `model ${record.model}`,
    ...(record.dateRange ? [`posts from ${record.dateRange.from} to ${record.dateRange.to}`] : []),
    ...(record.purchase
      ? [
          `purchase ${record.purchase.id}`,
          ...(record.purchase.txHash ? [`transaction ${record.purchase.txHash}`] : []),
        ]
      : []),
  ].join('; ');

/** The key both forms use: stable, and only characters BibTeX and CSL allow in one. */
export const citationKey = (record: ReportRecord): string =>
  `intel-desk-${safeFileName(`${record.handle}-${record.createdAt.slice(0, 10)}-${record.reportId}`)}`.replace(
    /\./g,
    '_',
  );

function dateParts(iso: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export interface CslItem {
  id: string;
  type: 'report';
  title: string;
  author: { literal: string }[];
  publisher: string;
  genre: string;
  number: string;
  URL: string;
  note: string;
  issued: { 'date-parts': [number, number, number][] } | { literal: string };
  accessed?: { 'date-parts': [number, number, number][] };
}

/** One CSL-JSON item (a report), as the array CSL-JSON files hold. */
export function cslJson(record: ReportRecord): CslItem[] {
  const issued = dateParts(record.createdAt);
  const accessed = record.purchase ? dateParts(record.purchase.purchasedAt) : null;
  return [
    {
      id: citationKey(record),
      type: 'report',
      title: oneLine(title(record)),
      author: [{ literal: oneLine(serviceName(record)) }],
      publisher: oneLine(serviceName(record)),
      genre: 'Intelligence report',
      number: oneLine(record.reportId),
      URL: oneLine(record.serviceUrl),
      note: oneLine(note(record)),
      issued: issued ? { 'date-parts': [issued] } : { literal: oneLine(record.createdAt) },
      ...(accessed ? { accessed: { 'date-parts': [accessed] } } : {}),
    },
  ];
}

const TEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '%': '\\%',
  '&': '\\&',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '^': '\\^{}',
  '~': '\\~{}',
};

/** Text as a BibTeX field's content: one line, every TeX special character escaped, braces never unbalanced. */
export function bibtexText(text: string): string {
  return oneLine(text)
    .replace(/\s+/g, ' ')
    .replace(/[\\{}%&$#_^~]/g, (c) => TEX_ESCAPES[c] ?? c);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** One @misc entry. The author is in double braces: a service's name is a name, not "Last, First". */
export function bibtex(record: ReportRecord): string {
  const issued = dateParts(record.createdAt);
  const fields: [string, string][] = [
    ['author', `{${bibtexText(serviceName(record))}}`],
    ['title', `{${bibtexText(title(record))}}`],
    ['howpublished', bibtexText(`Intel Desk purchase from ${record.serviceUrl}`)],
    ...(issued
      ? ([
          ['year', String(issued[0])],
          ['month', MONTHS[issued[1] - 1] ?? ''],
        ] as [string, string][])
      : []),
    ['note', bibtexText(note(record))],
    ['url', bibtexText(record.serviceUrl)],
  ];
  // Month macros (jan…dec) are written bare, as BibTeX expects them; everything else in braces.
  const body = fields.map(([name, value]) =>
    name === 'month' ? `  month = ${value}` : `  ${name} = {${value}}`,
  );
  return `@misc{${citationKey(record)},\n${body.join(',\n')}\n}\n`;
}

/** The citation as a file to save or copy: `base` is the report's file name without its extension. */
export function citationFile(
  record: ReportRecord,
  format: 'csl-json' | 'bibtex',
  base: string,
): { filename: string; mimeType: string; content: string; encoding: 'utf8' } {
  return format === 'bibtex'
    ? { filename: `${base}.bib`, mimeType: 'application/x-bibtex', content: bibtex(record), encoding: 'utf8' }
    : {
        filename: `${base}.csl.json`,
        mimeType: 'application/vnd.citationstyles.csl+json',
        content: `${JSON.stringify(cslJson(record), null, 2)}\n`,
        encoding: 'utf8',
      };
}
