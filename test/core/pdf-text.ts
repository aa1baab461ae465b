/** Reading back what a PDF export drew, for the tests of the exports. */
import { inflateSync } from 'node:zlib';

/** Each content stream of the PDF, inflated (pdfkit compresses them with Flate); one that is not is skipped. */
function* contentStreams(pdf: Buffer): Generator<string> {
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    try {
      yield inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1');
    } catch {
      continue;
    }
  }
}

/** The text drawn on the pages: pdfkit writes it as hex strings inside Flate-compressed content streams. */
export function drawnText(pdf: Buffer): string {
  const texts: string[] = [];
  for (const content of contentStreams(pdf)) {
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g))
      texts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
  }
  return texts.join('');
}

/** A filled rectangle a page drew: its left edge, width and fill colour as "r g b" (0–1). */
export interface DrawnRect {
  x: number;
  width: number;
  fill: string;
}

/** The filled rectangles drawn on the pages (pdfkit writes `x y w h re`, the colour's `scn`, then `f`). */
export function drawnRects(pdf: Buffer): DrawnRect[] {
  const rects: DrawnRect[] = [];
  for (const content of contentStreams(pdf)) {
    for (const rect of content.matchAll(
      /([\d.-]+) [\d.-]+ ([\d.-]+) [\d.-]+ re\n(?:\/DeviceRGB cs\n)?([\d. ]+) scn\nf/g,
    )) {
      const fill = rect[3]!
        .split(' ')
        .map((n) => Number(n).toFixed(3))
        .join(' ');
      rects.push({ x: Number(rect[1]), width: Number(rect[2]), fill });
    }
  }
  return rects;
}
