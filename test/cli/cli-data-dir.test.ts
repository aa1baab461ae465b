/**
 * README's promise about the two libraries: the CLI pointed at the app's data folder with --data-dir reads
 * what the app bought there, offline, after the demo's service and chain are gone (as after `npm start`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { LibraryItem } from '../../src/shared/rpc';
import { closedPortUrl } from '../closed-port';
import { deskWithWallet, tempDir } from '../core/helpers';
import { runCli } from './run-cli';

let stack: Stack | null;
let data: ReturnType<typeof tempDir>;
let bought: string[];
let shelfEntry: { username: string; displayName: string | null };

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 } });
  data = tempDir('desk-cli-data-dir-');
  const { desk } = await deskWithWallet(stack, data.dir);
  try {
    const entry = (await desk.handlers['shelf.list']({})).entries[0]!;
    shelfEntry = { username: entry.username, displayName: entry.displayName ?? null };
    const handle = entry.username;
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (outcome.status !== 'completed') throw new Error(`the app's purchase ended ${outcome.status}`);
    bought = outcome.purchase.reportIds;
  } finally {
    await desk.close();
  }
  await stack.stop();
  stack = null;
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe("the CLI on the app's data folder", () => {
  it('lists, reads and exports what the app bought, with its service gone', async () => {
    // Not the service the app bought from, and nothing answers there: as the CLI on the demo's folder.
    const env = {
      INTEL_DESK_SERVICE_URL: await closedPortUrl(),
      INTEL_DESK_DATA_DIR: undefined,
      INTEL_DESK_PASSPHRASE: undefined,
      INTEL_DESK_PRIVATE_KEY: undefined,
    };
    const cli = (args: string[]) => runCli(['--data-dir', data.dir, ...args], env);
    const library = await cli(['library', '--json']);
    expect(library.code, library.stderr).toBe(0);
    expect((JSON.parse(library.stdout) as LibraryItem[]).map((item) => item.id).sort()).toEqual(
      [...bought].sort(),
    );
    const table = await cli(['library']);
    expect(table.stdout).toContain(`@${shelfEntry.username} `);
    const read = await cli(['read', bought[0]!]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout.length).toBeGreaterThan(100);
    const md = await cli(['export', bought[1]!, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    // Titled as the Report screen names the subject: the shelf's display name and the service's spelling.
    expect(shelfEntry.displayName).toBeTruthy();
    const name = `${shelfEntry.displayName!} (@${shelfEntry.username})`;
    expect(shelfEntry.username).not.toBe(shelfEntry.username.toLowerCase());
    expect(md.stdout.split('\n')[0]).toMatch(new RegExp(`^# ${name.replace(/[()]/g, '\\$&')}: report of `));
  });
});
