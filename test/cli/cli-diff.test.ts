/**
 * `intel-desk diff` against the reference service: two reports bought over real HTTP and a real chain,
 * compared offline. The figures are checked against the stored reports themselves, not against constants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView, ShelfView } from '../../src/shared/rpc';
import type { ReportDiff } from '../../src/shared/report-diff';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { tempDir } from '../core/helpers';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let owned: string[];
let notOwned: string;

function cli(args: string[]): Promise<Run> {
  return runCli(args, stackEnv(stack, data.dir));
}

async function stored(id: string): Promise<IntelReportSnapshot> {
  const run = await cli(['export', id, '--format', 'json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as IntelReportSnapshot;
}

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
  });
  data = tempDir('desk-cli-diff-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  const handle = parsed<ShelfView>(await cli(['list', '--json'])).entries[0]!.username;
  const menu = parsed<MenuView>(await cli(['menu', handle, '--json']));
  // Newest first: own the three oldest, leave the newest unbought.
  const [newest, ...rest] = menu.reports.map((r) => r.id);
  notOwned = newest!;
  owned = rest.reverse();
  const bought = await cli(['buy', handle, '--ids', owned.join(','), '--yes', '--key-file', keyFile]);
  expect(bought.code, bought.stderr).toBe(0);
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk diff', () => {
  it('compares two owned reports older first, whatever order they are named in', async () => {
    const [oldest, , latest] = owned as [string, string, string];
    const forward = parsed<ReportDiff>(await cli(['diff', oldest, latest, '--json']));
    const backward = parsed<ReportDiff>(await cli(['diff', latest, oldest, '--json']));
    expect(backward).toEqual(forward);
    expect(forward.older.id).toBe(oldest);
    expect(forward.newer.id).toBe(latest);
    expect(forward.reportsBetween).toBe(1);

    const [before, after] = [await stored(oldest), await stored(latest)];
    expect(forward.metrics.find((m) => m.name === 'postCount')).toEqual({
      name: 'postCount',
      kind: 'value',
      before: before.meta.postCount,
      after: after.meta.postCount,
      delta: after.meta.postCount! - before.meta.postCount!,
    });
    const labels = (s: IntelReportSnapshot) =>
      (s.analytics['topicShare'] as { label: string }[]).map((t) => t.label);
    expect(forward.topicsAdded).toEqual(labels(after).filter((t) => !labels(before).includes(t)));
    expect(forward.topicsDropped).toEqual(labels(before).filter((t) => !labels(after).includes(t)));

    // Rebuilding each side of a narrative section from its parts gives back both reports' text.
    for (const section of forward.narrative) {
      const older = section.parts
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join('');
      const newer = section.parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join('');
      expect(older).toBe(before.narrative[section.section] ?? '');
      expect(newer).toBe(after.narrative[section.section] ?? '');
    }
    expect(forward.narrative.some((section) => section.changed)).toBe(true);
  });

  it('prints the change as text a person can read', async () => {
    const [oldest, next] = owned as [string, string];
    const run = await cli(['diff', oldest, next]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${oldest} (@`);
    expect(run.stdout).toContain('consecutive in your library');
    expect(run.stdout).toMatch(/postCount\s+\d+\s+\d+\s+[+−±]\d+/);
    expect(run.stdout).toMatch(/topicShare: [a-z ]+\s+\d+(\.\d)?%\s+\d+(\.\d)?%\s+[+−±][\d.]+ pts/);
    expect(run.stdout).toMatch(/\{\+.+\+\}|\[-.+-\]/);
  });

  it('refuses a report the library does not hold, and the same report twice, as usage errors', async () => {
    const unowned = await cli(['diff', owned[0]!, notOwned]);
    expect(unowned.code).toBe(2);
    expect(unowned.stderr).toContain(`Report ${notOwned} is not in your library.`);
    const same = await cli(['diff', owned[0]!, owned[0]!]);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('choose two different reports');
    const missing = await cli(['diff', owned[0]!]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing second report id');
  });
});
