/**
 * The hosts (Electron, the web host and core's worker, the CLI, the MCP server, the scripts) hold core through
 * its index and a few light entries, never through its other modules; the renderer, the contract and the
 * reference service hold nothing of core. Tests and benchmarks, which measure core's parts, may reach any.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importGraph } from './import-graph';

const root = path.resolve(__dirname, '../..');

/**
 * Core's entries, relative to src/core, each with why a host takes it. The index loads the whole desk
 * (SQLite, viem, the service client); the others load next to nothing, for a host that must not load a desk:
 * Electron's main process (core runs in a worker), the CLI before a command opens the library, the web host
 * before its worker starts.
 */
const CORE_ENTRIES: Record<string, string> = {
  'index.ts': 'the desk: createDeskCore, its handlers and events, and the types hosts pass it',
  'base/app-data-folder.ts': "the CLI finds the installed app's library before it opens one",
  'base/errors.ts': "DeskError: core's refusals, said and raised by hosts that load no desk",
  'handlers/door.ts':
    "isRpcMethod: dispatch refuses a method outside the contract before it reaches core's handlers",
  'library/plain-text.ts':
    'stripControls: the one rule for service text on its way to a terminal or a document',
  'payments/clock-offset.ts': 'the testing clock, read from the environment before the desk starts',
  'base/transport.ts':
    'requireEncryptedOrLocal: the CLI refuses a plain-http URL before it opens the library',
  'dossier/bundle.ts': 'parseBundle: the CLI checks a bundle file before it is sent',
  'db/backups-folder.ts': "the demo's boot sets the last keystore aside before core starts",
  'wallet/folder-wallet.ts': "the demo's boot prepares its wallet folder before core starts",
};

const HOSTS = ['src/cli', 'src/mcp', 'src/host', 'electron', 'scripts'];
const CORELESS = ['src/renderer', 'src/shared', 'src/service'];

/** Each import from the given folders into core's folder, as `from → target`, target relative to core. */
function reachesIntoCore(base: string, folders: string[], core: string): { from: string; to: string }[] {
  return folders.flatMap((folder) =>
    [...importGraph(path.join(base, folder))].flatMap(([from, targets]) =>
      targets
        .filter((to) => !path.relative(core, to).startsWith('..'))
        .map((to) => ({
          from: path.relative(base, from),
          to: path.relative(core, to).split(path.sep).join('/'),
        })),
    ),
  );
}

const outsideEntries = (base: string, folders: string[], core: string) =>
  reachesIntoCore(base, folders, core).filter(({ to }) => !Object.hasOwn(CORE_ENTRIES, to));

describe("core's entries", () => {
  const core = path.join(root, 'src/core');

  it('are the only modules of core the hosts import', () => {
    expect(outsideEntries(root, HOSTS, core)).toEqual([]);
  });

  it('are each still imported by a host, so the list holds only what is used', () => {
    const used = new Set(reachesIntoCore(root, HOSTS, core).map(({ to }) => to));
    expect(Object.keys(CORE_ENTRIES).filter((entry) => !used.has(entry))).toEqual([]);
  });

  it('are not imported at all by the renderer, the contract or the reference service', () => {
    expect(reachesIntoCore(root, CORELESS, core)).toEqual([]);
  });

  const temporary: string[] = [];
  afterEach(() => {
    for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('finds a host that reaches past them', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'core-entries-'));
    temporary.push(dir);
    const files: Record<string, string> = {
      'src/core/index.ts': "export * from './base/errors';\n",
      'src/core/base/errors.ts': 'export class DeskError extends Error {}\n',
      'src/core/cache/snapshots.ts': 'export const snapshots = 1;\n',
      'src/cli/main.ts': "import { DeskError } from '../core';\nimport '../core/base/errors';\n",
      'src/mcp/tools.ts':
        "import { snapshots } from '../core/cache/snapshots';\nexport const n = snapshots;\n",
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    expect(outsideEntries(dir, ['src/cli', 'src/mcp'], path.join(dir, 'src/core'))).toEqual([
      { from: path.join('src', 'mcp', 'tools.ts'), to: 'cache/snapshots.ts' },
    ]);
  });
});
