/**
 * Small things a newcomer meets on the command line (issue 44): `shelf` as the app names it, `budget` alone
 * showing the budgets, an unknown handle named in the refusal, and no "paying…" before a cap refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import { ledgerRows, tempDir } from '../core/helpers';
import { runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let handle: string;

const cli = (args: string[]): Promise<Run> => runCli(args, stackEnv(stack, data.dir));

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  data = tempDir('desk-cli-polish-');
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('the command line for a newcomer', () => {
  it('lists the shelf under the name the app gives it', async () => {
    const [shelf, list] = [await cli(['shelf']), await cli(['list'])];
    expect(shelf.code, shelf.stderr).toBe(0);
    expect(shelf.stdout).toContain(handle);
    expect(shelf.stdout).toBe(list.stdout);
  });

  it('shows the budgets when budget is given no handle', async () => {
    const none = await cli(['budget']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('no monthly budgets are set; `intel-desk budget <handle> <usd>` sets one');
    expect((await cli(['budget', handle, '5'])).code).toBe(0);
    const set = await cli(['budget']);
    expect(set.stdout).toMatch(new RegExp(`@${handle}\\s+\\$5\\.00/month\\s+\\$0\\.00`));
  });

  it('names an unknown handle', async () => {
    for (const args of [
      ['menu', 'nobody_here'],
      ['quote', 'nobody_here', '--all'],
    ]) {
      const run = await cli(args);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        'The service holds no reports for @nobody_here; `intel-desk shelf` lists the handles it has.',
      );
    }
  });

  it('does not say "paying…" for a purchase a cap refuses before signing', async () => {
    const keyFile = path.join(data.dir, 'buyer.key');
    writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
    expect((await cli(['caps', '--per-purchase', '0.01'])).code).toBe(0);
    const run = await cli(['buy', handle, '--all', '--yes', '--key-file', keyFile]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/cap/);
    expect(run.stderr).not.toContain('paying');
    expect(ledgerRows(data.dir)).toEqual([]);
  });
});
