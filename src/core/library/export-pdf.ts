/**
 * A snapshot as a PDF document (pdfkit, standard Helvetica): the same sections as the Markdown export.
 * The standard PDF fonts draw only WinAnsi text, so anything else becomes "?" and bidi or control
 * characters are dropped; a value longer than MAX_TEXT is cut with a pointer to the JSON export.
 */
import PDFDocument from 'pdfkit';
import type { IntelReportSnapshot } from '../../shared/wire';
import {
  humanize,
  MAX_EXPORT_DEPTH,
  provenanceLine,
  subjectTitle,
  TOO_DEEP,
  type ExportLabels,
  type ExportSubject,
  type Provenance,
} from './export';
import {
  analyticsFigures,
  figureText,
  readableDate,
  seriesDate,
  type AnalyticsFigure,
} from '../../shared/analytics-shape';

const MAX_TEXT = 20_000;
const TYPOGRAPHY = '–—‘’‚“”„•…€™†‡‰‹›ŒœŠšŽžŸƒˆ˜';
/** Control, zero-width and bidi-override characters: never drawn, never kept. */
function isInvisible(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

function isWinAnsi(c: string): boolean {
  return c === '\n' || (c >= ' ' && c <= '~') || (c >= '\u00A0' && c <= '\u00FF') || TYPOGRAPHY.includes(c);
}

export function winAnsi(text: string): string {
  const cut =
    text.length > MAX_TEXT
      ? `${text.slice(0, MAX_TEXT)} … (${text.length - MAX_TEXT} more characters; see the JSON export)`
      : text;
  return [...cut.replaceAll('\t', ' ')]
    .filter((c) => !isInvisible(c.codePointAt(0)!))
    .map((c) => (isWinAnsi(c) ? c : '?'))
    .join('');
}

export type Doc = InstanceType<typeof PDFDocument>;

function heading(doc: Doc, text: string): void {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(winAnsi(text)).moveDown(0.3);
  doc.font('Helvetica').fontSize(10.5);
}

function writeValue(doc: Doc, value: unknown, depth: number, label: string | null): void {
  const indent = 14 * depth;
  const prefix = label === null ? '' : `${winAnsi(humanize(label))}: `;
  if (depth > MAX_EXPORT_DEPTH) {
    doc.text(`${prefix}(${TOO_DEEP})`, { indent: 14 * MAX_EXPORT_DEPTH });
    return;
  }
  if (value !== null && typeof value === 'object') {
    if (label !== null) doc.font('Helvetica-Bold').text(prefix, { indent }).font('Helvetica');
    const entries: [string | null, unknown][] = Array.isArray(value)
      ? value.map((item) => [null, item])
      : Object.entries(value as Record<string, unknown>);
    for (const [key, item] of entries) writeValue(doc, item, depth + 1, key);
    return;
  }
  const text = value === null || value === undefined ? 'none' : winAnsi(String(value));
  doc.text(`${label === null && depth > 0 ? '• ' : ''}${prefix}${text}`, { indent, paragraphGap: 2 });
}

/** An A4 document in the desk's house style and the bytes it will have once ended. */
export function pdfDocument(title: string): { doc: Doc; done: Promise<Buffer> } {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: winAnsi(title), Creator: 'Intel Desk' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

const CHART = {
  labelWidth: 150,
  barWidth: 250,
  rowHeight: 15,
  fill: '#2457c5',
  negative: '#b3261e',
  track: '#e6e9ef',
  axis: '#555555',
};

/**
 * Where zero sits on the track and how many points one unit is. With negative values (sentiment) the track
 * spans from the lowest to the highest value and bars grow from the zero line, left for negative.
 */
export function barScale(values: number[], width = CHART.barWidth): { zero: number; perUnit: number } {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low;
  if (span <= 0) return { zero: 0, perUnit: 0 };
  return { zero: low < 0 ? (-low / span) * width : 0, perUnit: width / span };
}

/** Horizontal bars with their values written beside them: the PDF reads without colour or a legend. */
function drawBars(doc: Doc, rows: { label: string; value: number; text: string }[]): void {
  const { zero, perUnit } = barScale(rows.map((r) => r.value));
  doc.fontSize(9.5);
  for (const row of rows) {
    if (doc.y + CHART.rowHeight > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const top = doc.y;
    const left = doc.page.margins.left;
    doc.fillColor('#000000').text(winAnsi(row.label), left, top + 2, {
      width: CHART.labelWidth - 8,
      lineBreak: false,
      ellipsis: true,
    });
    const track = left + CHART.labelWidth;
    const length = row.value * perUnit;
    doc.rect(track, top + 1, CHART.barWidth, CHART.rowHeight - 4).fill(CHART.track);
    if (length > 0) doc.rect(track + zero, top + 1, length, CHART.rowHeight - 4).fill(CHART.fill);
    if (length < 0)
      doc.rect(track + zero + length, top + 1, -length, CHART.rowHeight - 4).fill(CHART.negative);
    // The zero line, where a chart has values on both sides of it.
    if (zero > 0)
      doc
        .moveTo(track + zero, top)
        .lineTo(track + zero, top + CHART.rowHeight - 2)
        .lineWidth(0.75)
        .stroke(CHART.axis);
    doc
      .fillColor('#000000')
      .text(winAnsi(row.text), left + CHART.labelWidth + CHART.barWidth + 8, top + 2, { lineBreak: false });
    doc.x = left;
    doc.y = top + CHART.rowHeight;
  }
  doc.fontSize(10.5).moveDown(0.5);
}

function drawFigure(doc: Doc, figure: AnalyticsFigure): void {
  doc
    .moveDown(0.4)
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(winAnsi(humanize(figure.name)))
    .font('Helvetica')
    .fontSize(10.5);
  if (figure.kind === 'value') doc.text(figureText(figure.value, false));
  else if (figure.kind === 'other') writeValue(doc, figure.value, 0, null);
  else if (figure.kind === 'bars') {
    drawBars(
      doc,
      figure.points.map((p) => ({
        label: figure.origin === 'record' ? humanize(p.label) : p.label,
        value: p.value,
        text: figureText(p.value, figure.percent),
      })),
    );
  } else {
    drawBars(
      doc,
      figure.points.map((p) => ({
        label: figure.dates ? seriesDate(p.x) : `${humanize(figure.xLabel)} ${p.x}`,
        value: p.y,
        text: figureText(p.y, false),
      })),
    );
  }
}

export function snapshotPdf(
  subject: ExportSubject,
  snapshot: IntelReportSnapshot,
  provenance: Provenance | null = null,
  labels: ExportLabels | null = null,
): Promise<Buffer> {
  const title = subjectTitle(subject);
  const { doc, done } = pdfDocument(`${title}: report of ${snapshot.createdAt.slice(0, 10)}`);
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(winAnsi(`${title}: report of ${readableDate(snapshot.createdAt)}`));
  doc.font('Helvetica').fontSize(10).fillColor('#555555');
  const period = snapshot.meta.dateRange
    ? `${readableDate(snapshot.meta.dateRange.from)} to ${readableDate(snapshot.meta.dateRange.to)}`
    : 'unknown period';
  doc.text(
    winAnsi(
      `Report ${snapshot.id} · ${snapshot.model} · ${snapshot.meta.postCount ?? '?'} posts · ${period}`,
    ),
  );
  if (provenance) doc.text(winAnsi(provenanceLine(provenance)));
  if (labels && labels.tags.length > 0) doc.text(winAnsi(`Tags: ${labels.tags.join(', ')}`));
  doc.fillColor('#000000').fontSize(10.5);
  if (labels && labels.note.trim() !== '') {
    heading(doc, 'My notes');
    doc.text(winAnsi(labels.note));
  }
  for (const [section, text] of Object.entries(snapshot.narrative)) {
    heading(doc, humanize(section));
    writeValue(doc, text, 0, null);
  }
  heading(doc, 'Change since the previous report');
  if (snapshot.changeSummary === null) doc.text('This is the first (baseline) report.');
  else writeValue(doc, snapshot.changeSummary, 0, null);
  heading(doc, 'Analytics');
  for (const figure of analyticsFigures(snapshot.analytics)) drawFigure(doc, figure);
  doc.end();
  return done;
}
