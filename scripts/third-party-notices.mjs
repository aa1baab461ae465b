// Writes out/THIRD_PARTY_NOTICES.txt: name, version, licence and licence text of every third-party package the
// built app carries. That is the dependency closure of package.json's `dependencies` (what electron-builder
// copies into the package) and of every package the app's own source imports (what vite bundles into the
// window, main and the core worker, whichever list it is declared in). @walletconnect/* packages are under
// the WalletConnect Community License, which requires its text and a copyright line "in the notices": the line,
// as the licence words it, heads the file. A package whose licence cannot be named is refused (exit 1) until
// LICENCE_OVERRIDES names it with where it was found.
// Usage: node scripts/third-party-notices.mjs [output file]; run by `npm run build`; Help → About shows it.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SOURCE_DIRS = ['electron', 'src/renderer', 'src/shared', 'src/core', 'src/host'];
const builtins = new Set(builtinModules);

/**
 * Licences a package does not declare in its package.json, by name@version (a new version is looked at again),
 * each with where it was read.
 */
export const LICENCE_OVERRIDES = {
  'png-js@2.0.0': {
    licence: 'MIT',
    source: 'its LICENSE file ("MIT License", Copyright (c) 2017 Devon Govett) and the MIT header of png.js',
  },
};

/** The WalletConnect Community License's title, as its LICENSE.md begins. */
export const WALLETCONNECT_LICENCE = 'WALLETCONNECT COMMUNITY LICENSE AGREEMENT';

/** The copyright line that licence requires "in the notices", quoted from its Distribution Requirements. */
export function requiredAttribution(licenceText) {
  const match = /include the following copyright notice[^“"]*[“"]([^”"]+)[”"]/.exec(licenceText);
  return match ? match[1].trim() : null;
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The package name of a bare import specifier ('@scope/name/sub' → '@scope/name'), or null. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtins.has(name) || name === 'electron' ? null : name;
}

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

function importedPackages(root) {
  const names = new Set();
  const pattern = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
  for (const dir of SOURCE_DIRS)
    for (const file of sourceFiles(path.join(root, dir)))
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(pattern)) {
        const name = packageOf(specifier);
        if (name) names.add(name);
      }
  return names;
}

/** Where Node would find `name` from a package in `fromDir` (nested node_modules first, then upwards). */
function resolvePackage(root, name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return path.dirname(candidate);
    if (dir === root || path.dirname(dir) === dir) return null;
  }
}

const LICENCE_FILE = /^(licen[sc]e|copying|notice)(\.|-|$)/i;

function licenceText(dir) {
  const files = readdirSync(dir)
    .filter((name) => LICENCE_FILE.test(name) && statSync(path.join(dir, name)).isFile())
    .sort();
  return files.map((name) => readFileSync(path.join(dir, name), 'utf8').trim()).join('\n\n');
}

/** "SEE LICENSE IN LICENSE.md" names a file: the licence is called by that file's title. */
function licenceName(manifest, dir) {
  const referred = /^SEE LICEN[SC]E IN (.+)$/i.exec(manifest.license ?? '');
  if (referred && existsSync(path.join(dir, referred[1]))) {
    const title = readFileSync(path.join(dir, referred[1]), 'utf8')
      .split('\n')
      .map((line) => line.replace(/[*#_]/g, '').trim())
      .find((line) => line.length > 0);
    if (title) return title;
  }
  if (typeof manifest.license === 'string') return manifest.license;
  if (manifest.license?.type) return manifest.license.type;
  if (Array.isArray(manifest.licenses)) return manifest.licenses.map((l) => l.type ?? l).join(' OR ');
  return 'UNKNOWN';
}

/**
 * Every third-party package the built app carries under `root`, with its licence and licence text.
 * @returns {{ packages: object[], problems: string[], attributions: string[] }}
 */
export function shippedPackages(root, overrides = LICENCE_OVERRIDES) {
  const own = readJson(path.join(root, 'package.json'));
  const found = new Map();
  const missing = [];
  const visit = (name, fromDir, optional) => {
    const dir = resolvePackage(root, name, fromDir);
    if (!dir) {
      if (!optional) missing.push(name);
      return;
    }
    const manifest = readJson(path.join(dir, 'package.json'));
    const key = `${manifest.name}@${manifest.version}`;
    if (found.has(key)) return;
    found.set(key, {
      name: manifest.name,
      version: manifest.version,
      licence: licenceName(manifest, dir),
      dir,
    });
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  const roots = new Set([...Object.keys(own.dependencies ?? {}), ...importedPackages(root)]);
  for (const name of roots) visit(name, root, false);

  const problems = [];
  if (missing.length > 0) problems.push(`not installed: ${[...new Set(missing)].join(', ')}`);
  for (const [key, override] of Object.entries(overrides)) {
    const entry = found.get(key);
    if (!entry) problems.push(`LICENCE_OVERRIDES names ${key}, which does not ship: remove it`);
    else if (entry.licence !== 'UNKNOWN')
      problems.push(`${key} now declares ${entry.licence}: remove its LICENCE_OVERRIDES entry`);
    else Object.assign(entry, { licence: override.licence, source: override.source });
  }
  for (const [key, entry] of found)
    if (entry.licence === 'UNKNOWN')
      problems.push(
        `${key} names no licence: read its files and add it to LICENCE_OVERRIDES with the source`,
      );

  const packages = [...found.values()].sort((a, b) =>
    a.name === b.name ? a.version.localeCompare(b.version) : a.name.localeCompare(b.name),
  );
  const attributions = new Set();
  for (const p of packages.filter((entry) => entry.licence === WALLETCONNECT_LICENCE)) {
    const line = requiredAttribution(licenceText(p.dir));
    if (line) attributions.add(line);
    else problems.push(`${p.name} ${p.version}: its licence's required copyright notice was not found`);
  }
  return { packages, problems, attributions: [...attributions] };
}

/** The notices file: the required attributions first, then each package with its licence and text. */
export function noticesText(version, { packages, attributions }) {
  const rule = '-'.repeat(78);
  const sections = packages.map((p) => {
    const text =
      licenceText(p.dir) || `No licence file is included in the package; it declares: ${p.licence}.`;
    const source = p.source ? ` (not declared in its package.json: from ${p.source})` : '';
    return `${rule}\n${p.name} ${p.version}\nLicence: ${p.licence}${source}\n\n${text}\n`;
  });
  const header = [
    `Intel Desk ${version}: third-party notices`,
    '',
    ...attributions,
    ...(attributions.length > 0 ? [''] : []),
    `Intel Desk includes the following ${packages.length} third-party packages. Each is listed with its version,`,
    'its licence and the licence text it is distributed with.',
    '',
  ].join('\n');
  return `${header}\n${sections.join('\n')}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(import.meta.dirname, '..');
  const output = path.resolve(process.argv[2] ?? path.join(root, 'out', 'THIRD_PARTY_NOTICES.txt'));
  const shipped = shippedPackages(root);
  if (shipped.problems.length > 0) {
    console.error(`third-party-notices: ${shipped.problems.join('\n  ')}`);
    process.exit(1);
  }
  mkdirSync(path.dirname(output), { recursive: true });
  writeFileSync(output, noticesText(readJson(path.join(root, 'package.json')).version, shipped));
  console.log(
    `third-party-notices: ${shipped.packages.length} packages in ${path.relative(process.cwd(), output)}`,
  );
}
