/**
 * The app icon: the committed PNGs are what scripts/make-icon.ts draws, at the sizes their users need, and the
 * renderer, the window and electron-builder all point at them.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import { ICON_FILES, renderIcon } from '../../scripts/make-icon';

const root = path.resolve(__dirname, '../..');

/** Width, height and RGBA pixels of a PNG whose rows all use filter 0 (what make-icon writes). */
function decodePng(file: string) {
  const png = readFileSync(file);
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([body[8], body[9]]).toEqual([8, 6]);
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(data));
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const start = y * (width * 4 + 1);
    expect(rows[start]).toBe(0);
    rows.copy(pixels, y * width * 4, start + 1, start + 1 + width * 4);
  }
  return { width, height, pixels };
}

describe('the app icon', () => {
  it('is the drawing of scripts/make-icon.ts, 512x512 for packages and 64x64 for the favicon', () => {
    expect(ICON_FILES.map((f) => [f.file, f.size])).toEqual([
      ['resources/icon.png', 512],
      ['src/renderer/public/favicon.png', 64],
    ]);
    for (const { file, size } of ICON_FILES) {
      const png = decodePng(path.join(root, file));
      expect([png.width, png.height], file).toEqual([size, size]);
      expect(png.pixels.equals(renderIcon(size)), `${file} is stale: run npx tsx scripts/make-icon.ts`).toBe(
        true,
      );
      // Transparent corners, an opaque middle.
      expect(png.pixels[3]).toBe(0);
      expect(png.pixels[((size / 2) * size + size / 2) * 4 + 3]).toBe(255);
    }
  });

  it('is the renderer’s favicon, served from Vite’s public folder', () => {
    const html = readFileSync(path.join(root, 'src/renderer/index.html'), 'utf8');
    expect(html).toContain('<link rel="icon" type="image/png" href="./favicon.png" />');
    expect(existsSync(path.join(root, 'src/renderer/public/favicon.png'))).toBe(true);
  });

  it('is the icon of every package, shipped unpacked for the window', async () => {
    const config = await getConfig(root, null, null);
    expect(config.icon).toBe('resources/icon.png');
    // electron-builder's loader normalises file lists into { filter: [...] } sets.
    expect(JSON.stringify(config.files)).toContain('"resources/icon.png"');
    expect(JSON.stringify(config.asarUnpack)).toContain('"resources/icon.png"');
  });
});
