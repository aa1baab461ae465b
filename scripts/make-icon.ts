/**
 * Draws the Intel Desk icon (a report on a navy tile with a gold coin: a report bought per read) and writes it
 * as PNG: resources/icon.png at 512x512 for the window and electron-builder (which derives .icns and .ico from
 * it), and src/renderer/public/favicon.png at 64x64 for the renderer. Drawn from shapes in code, so no image
 * tool or rasterizer dependency is needed and the files can be regenerated exactly:
 *   npx tsx scripts/make-icon.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

interface Shape {
  /** Whether the point (u, v), both in 0..1 across the icon, is inside. */
  inside(u: number, v: number): boolean;
  colour(u: number, v: number): Rgb;
}

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number) {
  return (u: number, v: number) => {
    const dx = Math.max(x0 + r - u, 0, u - (x1 - r));
    const dy = Math.max(y0 + r - v, 0, v - (y1 - r));
    return u >= x0 && u <= x1 && v >= y0 && v <= y1 && dx * dx + dy * dy <= r * r;
  };
}

function circle(cx: number, cy: number, r: number) {
  return (u: number, v: number) => (u - cx) ** 2 + (v - cy) ** 2 <= r * r;
}

const solid = (rgb: Rgb) => (): Rgb => rgb;

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

const NAVY_TOP: Rgb = [36, 74, 116];
const NAVY_BOTTOM: Rgb = [14, 36, 62];
const PAPER: Rgb = [244, 246, 249];
const HEADING: Rgb = [44, 80, 118];
const TEXT: Rgb = [150, 166, 184];
const GOLD: Rgb = [240, 178, 52];
const GOLD_RIM: Rgb = [214, 146, 22];

/** Back to front; the first shape that contains a point gives its colour. */
const SHAPES: Shape[] = [
  // The coin, with a navy ring that keeps it apart from the page.
  { inside: circle(0.69, 0.69, 0.105), colour: solid(GOLD) },
  { inside: circle(0.69, 0.69, 0.155), colour: solid(GOLD_RIM) },
  { inside: circle(0.69, 0.69, 0.185), colour: (_u, v) => mix(NAVY_TOP, NAVY_BOTTOM, v) },
  // Lines of text on the report, a heading first.
  { inside: roundedRect(0.31, 0.28, 0.52, 0.325, 0.0225), colour: solid(HEADING) },
  { inside: roundedRect(0.31, 0.38, 0.63, 0.41, 0.015), colour: solid(TEXT) },
  { inside: roundedRect(0.31, 0.45, 0.63, 0.48, 0.015), colour: solid(TEXT) },
  { inside: roundedRect(0.31, 0.52, 0.55, 0.55, 0.015), colour: solid(TEXT) },
  { inside: roundedRect(0.31, 0.59, 0.49, 0.62, 0.015), colour: solid(TEXT) },
  // The report.
  { inside: roundedRect(0.25, 0.18, 0.69, 0.8, 0.035), colour: solid(PAPER) },
  // The tile, inset as the macOS and Windows icon grids expect.
  {
    inside: roundedRect(0.0625, 0.0625, 0.9375, 0.9375, 0.16),
    colour: (_u, v) => mix(NAVY_TOP, NAVY_BOTTOM, v),
  },
];

const SAMPLES = 4;

/** RGBA pixels, row by row, anti-aliased by averaging SAMPLES x SAMPLES points per pixel. */
export function renderIcon(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const u = (x + (sx + 0.5) / SAMPLES) / size;
          const v = (y + (sy + 0.5) / SAMPLES) / size;
          const shape = SHAPES.find((s) => s.inside(u, v));
          if (!shape) continue;
          const [cr, cg, cb] = shape.colour(u, v);
          r += cr;
          g += cg;
          b += cb;
          covered++;
        }
      }
      const at = (y * size + x) * 4;
      if (covered === 0) continue;
      pixels[at] = Math.round(r / covered);
      pixels[at + 1] = Math.round(g / covered);
      pixels[at + 2] = Math.round(b / covered);
      pixels[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A truecolour-with-alpha PNG, every row with filter type 0. */
export function encodePng(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ICON_FILES = [
  { file: 'resources/icon.png', size: 512 },
  { file: 'src/renderer/public/favicon.png', size: 64 },
] as const;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (const { file, size } of ICON_FILES) {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, encodePng(size, renderIcon(size)));
    console.log(`wrote ${file} (${size}x${size})`);
  }
}
