/** The built renderer (out/renderer): raw and gzip bytes, in total and for the largest JS chunk. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface BuiltFile {
  name: string;
  raw: number;
  gzip: number;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function sum(files: BuiltFile[], key: 'raw' | 'gzip'): number {
  return files.reduce((total, file) => total + file[key], 0);
}

export function bundleFigures(rendererDir: string): Record<string, number | string> {
  const files: BuiltFile[] = filesUnder(rendererDir).map((file) => {
    const bytes = readFileSync(file);
    return {
      name: path.relative(rendererDir, file),
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
    };
  });
  const js = files.filter((file) => file.name.endsWith('.js'));
  // What index.html loads up front (scripts, module preloads, styles); the other chunks are dynamic imports.
  const html = readFileSync(path.join(rendererDir, 'index.html'), 'utf8');
  const referenced = new Set(
    [...html.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]),
  );
  const initial = files.filter((file) => file.name === 'index.html' || referenced.has(file.name));
  const largest = [...js].sort((a, b) => b.raw - a.raw)[0];
  if (!largest) throw new Error(`no JS chunk under ${rendererDir}`);
  return {
    bundle_files: files.length,
    bundle_js_chunks: js.length,
    bundle_total_raw_bytes: sum(files, 'raw'),
    bundle_total_gzip_bytes: sum(files, 'gzip'),
    bundle_js_raw_bytes: sum(js, 'raw'),
    bundle_js_gzip_bytes: sum(js, 'gzip'),
    bundle_initial_raw_bytes: sum(initial, 'raw'),
    bundle_initial_gzip_bytes: sum(initial, 'gzip'),
    bundle_largest_js_chunk: largest.name,
    bundle_largest_js_raw_bytes: largest.raw,
    bundle_largest_js_gzip_bytes: largest.gzip,
  };
}
