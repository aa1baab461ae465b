import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import { tempDir } from '../core/helpers';
import { sameDayOffset } from '../core/clock';
import { root, runCli, sameDayCliClock, stackEnv, type Run } from './run-cli';
import { closedPortUrl } from '../closed-port';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let handle: string;
// "spent today" counts this file's purchases on the desk's day, which must not change during the file.
const clock = sameDayCliClock(sameDayOffset());

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCli(args, { ...stackEnv(stack, data.dir), ...clock.env, ...env });
}

const json = (run: Run) => JSON.parse(run.stdout) as Record<string, unknown> & unknown[];

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 3, minReportsPerHandle: 5, maxReportsPerHandle: 5 } });
  data = tempDir('desk-cli-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk CLI', () => {
  it('lists the shelf and a menu as tables and as JSON', async () => {
    const table = await cli(['list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^handle\s+name\s+followers\s+reports\s+updated/);
    expect(table.stdout).toContain(handle);
    const menu = await cli(['menu', handle, '--json']);
    expect(menu.code).toBe(0);
    expect((json(menu)['reports'] as unknown[]).length).toBe(5);
  });

  it('quotes without paying, refuses to buy without --yes, and buys with it', async () => {
    const quote = await cli(['quote', handle, '--all', '--json']);
    expect(json(quote)).toMatchObject({ reportCount: 5, amount: '50000' });
    const noYes = await cli(['buy', handle, '--all', '--key-file', keyFile]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/--yes/);
    const bought = await cli(['buy', handle, '--ids', 'rpt_does_not_exist', '--key-file', keyFile, '--yes']);
    expect(bought.code).toBe(2);
    expect(bought.stderr).toMatch(/lists no report rpt_does_not_exist\. Nothing was signed\./);
    const all = await cli(['buy', handle, '--all', '--yes', '--key-file', keyFile, '--json']);
    expect(all.code).toBe(0);
    expect(json(all)).toMatchObject({ status: 'completed' });
    const missing = await cli(['buy', handle, '--missing', '--yes', '--key-file', keyFile]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/You own all 5 reports of @\w+/);
  });

  it('reads, searches and exports the library, and shows purchases', async () => {
    const library = json(await cli(['library', '--json'])) as unknown as { id: string }[];
    expect(library).toHaveLength(5);
    const id = library[0]!.id;
    const read = await cli(['read', id]);
    expect(read.stdout).toContain('## Summary');
    const search = await cli(['search', 'posted', '--json']);
    expect((json(search) as unknown as unknown[]).length).toBeGreaterThan(0);
    const exported = await cli(['export', id, '--format', 'json']);
    expect(JSON.parse(exported.stdout).id).toBe(id);
    const history = await cli(['purchases']);
    expect(history.stdout).toMatch(/spent today: \$0\.05/);
    expect(history.stdout).toContain('completed');
  });

  it('shows the USDC balance in wallet status, and suggests buy for a report not owned', async () => {
    const status = await cli(['wallet', 'status', '--key-file', keyFile]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^\w+ wallet 0x[0-9a-fA-F]{40}: \d+\.\d\d USDC$/m);
    const shelf = json(await cli(['list', '--json'])) as unknown as { entries: { username: string }[] };
    const other = shelf.entries.find((e) => e.username !== handle)!.username;
    const menu = json(await cli(['menu', other, '--json'])) as unknown as { reports: { id: string }[] };
    const id = menu.reports[0]!.id;
    // The menu seen above names the report's handle, so the suggestion is the exact command.
    const read = await cli(['read', id]);
    expect(read.code).toBe(2);
    expect(read.stderr).toContain(
      `is not in your library. Buy it with: intel-desk buy ${other} --ids ${id} --yes`,
    );
    // A report no cached menu lists: the handle is left for the person to fill in.
    const unknown = await cli(['read', 'rpt_never_listed']);
    expect(unknown.stderr).toContain('Buy it with: intel-desk buy <handle> --ids rpt_never_listed --yes');
  });

  it('uses exit codes that tell usage, refusal, service and network errors apart', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['quote', handle])).code).toBe(2);
    expect((await cli(['menu', 'no such handle!'])).code).toBe(2);
    expect((await cli(['menu', 'nobody_here'])).code).toBe(4);
    // Every report of the handle is owned by now: --include-owned makes it ask for a price at all.
    const refused = await cli(['buy', handle, '--all', '--include-owned', '--yes', '--key-file', keyFile], {
      INTEL_DESK_DEMO: '0',
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/network_not_allowed/);
    const offline = await cli(['list', '--service', await closedPortUrl(), '--json']);
    expect(offline.code).toBe(5);
    expect(JSON.parse(offline.stdout)).toMatchObject({ error: { code: 'network_unreachable' } });
  });

  it('says when the library database was unusable and where the old file went', async () => {
    const other = tempDir('desk-cli-corrupt-');
    try {
      writeFileSync(path.join(other.dir, 'desk.db'), Buffer.alloc(8192, 0x5a));
      const run = await cli(['library', '--json'], { INTEL_DESK_DATA_DIR: other.dir });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([]);
      const moved = /moved to (\S+desk\.db\.corrupt-\S+) and a new one started/.exec(run.stderr)?.[1];
      expect(moved).toBeTruthy();
      expect(readFileSync(moved!)).toEqual(Buffer.alloc(8192, 0x5a));
    } finally {
      other.remove();
    }
  });

  it('runs as the package bin from any directory, through a symlink, compiled or not', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const bin = path.join(root, pkg.bin['intel-desk']!);
    expect(readFileSync(bin, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    // The compiled CLI needs no loader; a checkout whose compiled CLI is missing or stale runs the sources
    // through tsx, which comes with the devDependencies (cli-entry.test.ts: what it says without them).
    expect(pkg.devDependencies['tsx']).toBeTruthy();
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'desk-bin-'));
    try {
      const link = path.join(elsewhere, 'intel-desk');
      symlinkSync(bin, link);
      const help = execFileSync(link, ['--help'], { cwd: elsewhere, encoding: 'utf8' });
      expect(help).toMatch(/^intel-desk <command> \[options\]/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
