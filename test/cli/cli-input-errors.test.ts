/**
 * What the CLI says about input it cannot use: each bad date, id, command, flag or file is named with what
 * is wrong and exits 2 before anything is asked or paid; the words of a few results (plurals, "in all").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView } from '../../src/shared/rpc';
import { tempDir } from '../core/helpers';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let handle: string;
let ids: string[];

function cli(args: string[]): Promise<Run> {
  return runCli(args, stackEnv(stack, data.dir));
}

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 } });
  data = tempDir('desk-cli-input-');
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
  ids = parsed<MenuView>(await cli(['menu', handle, '--json'])).reports.map((r) => r.id);
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

async function usage(args: string[], message: RegExp): Promise<void> {
  const run = await cli(args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
  expect(run.stderr).toMatch(message);
  expect(run.stdout).toBe('');
}

describe('intel-desk on input it cannot use', () => {
  it('holds --days and a budget to the limits of the contract, in the words of the flags', async () => {
    for (const days of ['0', '367', '2.5', 'week', 'Infinity'])
      await usage(['spend', '--days', days], /--days is a whole number of days from 1 to 366/);
    await usage(['budget', handle, '1000001'], /the budget: The most a limit can be is \$1,000,000\.00\./);
    for (const amount of ['ten', 'NaN', ' ', 'Infinity', '1e3'])
      await usage(
        ['budget', handle, amount],
        /the budget: .* is not an amount of dollars; write it like 1\.50/,
      );
    await usage(['budget', handle, '0.0000001'], /the budget: USDC has 6 decimals/);
    await usage(['caps', '--daily', '1000001'], /--daily: The most a limit can be is \$1,000,000\.00\./);
  });

  it('names a date that is not on the calendar, for every date flag', async () => {
    await usage(
      ['purchases', '--csv', '--from', '2026-11-31'],
      /--from "2026-11-31" is not a date: there is no 31 November \(November has 30 days\)\./,
    );
    await usage(
      ['purchases', '--csv', '--from', 'yesterday'],
      /--from "yesterday" is not a date: use an ISO/,
    );
    await usage(['purchases', '--csv', '--to', '2026-02-29'], /2026 is not a leap year/);
    await usage(['purchases', '--from', '2026-10-01'], /--from and --to go with --csv/);
    await usage(
      ['quote', handle, '--from', '2026-13-01'],
      /--from "2026-13-01" is not a date: there is no month 13 \(months run from 01 to 12\)\./,
    );
    await usage(
      ['buy', handle, '--to', '2026-11-31T10:00:00Z', '--yes'],
      /--to "2026-11-31T10:00:00Z" is not a date: there is no 31 November/,
    );
  });

  it('writes the CSV of a period with a line end after its last line', async () => {
    const run = await cli(['purchases', '--csv', '--from', '2026-10-01', '--to', '2026-10-31']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      'date,purchase,service,handle,reports,charged_usd,state,network,payer,payee,transaction\r\n',
    );
  });

  it('names the ids the menu does not list, for quote and buy, whether some or all are unknown', async () => {
    await usage(
      ['buy', handle, '--ids', 'rpt_x,rpt_nope', '--yes'],
      new RegExp(`The menu of @${handle} lists no report rpt_x, rpt_nope\\. Nothing was signed\\.`),
    );
    await usage(
      ['quote', handle, '--ids', `${ids[0]!},rpt_nope`],
      new RegExp(`The menu of @${handle} lists no report rpt_nope\\. Nothing was signed\\.`),
    );
  });

  it('suggests the command or flag that was meant, in its own words', async () => {
    await usage(['lsit'], /^intel-desk: unknown command "lsit"\. Did you mean list\? See --help\.\n$/);
    await usage(['purchses'], /Did you mean purchases\?/);
    await usage(['frobnicate'], /^intel-desk: unknown command "frobnicate"\. See --help\.\n$/);
    await usage(
      ['list', '--jsn'],
      /^intel-desk: unknown option --jsn\. Did you mean --json\? See --help\.\n$/,
    );
    await usage(['quote', handle, '--from'], /--from needs a value/);
    await usage(['list', '--json=yes'], /--json is a switch and takes no value/);
    await usage(['wallet', 'stauts'], /wallet takes status or import\. Did you mean status\?/);
    await usage(['bundle', 'gte', handle], /bundle takes get or put\. Did you mean get\?/);
    await usage(['tag', 'rpt_x', 'rmove', 'energy'], /tag takes add or remove: .*\. Did you mean remove\?/);
    await usage(['secret', 'stat'], /secret takes set, clear or status\. Did you mean status\?/);
    const json = await cli(['lsit', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: 'usage', message: 'unknown command "lsit". Did you mean list? See --help.' },
    });
  });

  it('says a named file does not exist, is a folder, or is not JSON', async () => {
    const missing = path.join(data.dir, 'no-such.json');
    await usage(['bundle', 'put', handle, missing], new RegExp(`the bundle file ${missing} does not exist`));
    await usage(['bundle', 'put', handle, data.dir], /is a folder, not a file/);
    const broken = path.join(data.dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    await usage(['bundle', 'put', handle, broken], /the bundle file .*broken\.json is not valid JSON/);
    await usage(['restore', '--from', missing], new RegExp(`the backup file ${missing} does not exist`));
    await usage(
      ['wallet', 'import', '--key-file', missing],
      new RegExp(`the key file ${missing} does not exist`),
    );
  });

  it('says "in all" as the app does', async () => {
    const run = await cli(['spend']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^in all: +\$0\.00$/m);
    expect(run.stdout).not.toContain('lifetime');
  });
});
