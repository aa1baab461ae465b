/** Reading back what a PDF export drew, for the tests of the exports. */
import { inflateSync } from 'node:zlib';

/** The text drawn on the pages: pdfkit writes it as hex strings inside Flate-compressed content streams. */
export function drawnText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g))
      texts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
  }
  return texts.join('');
}
