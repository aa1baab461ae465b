/** `search` with the query language, its syntax errors, and `tag` / `note`, run as the real bin entry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import { tempDir } from '../core/helpers';
import { runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let handles: string[];

const cli = (args: string[]): Promise<Run> => runCli(args, stackEnv(stack, data.dir));
const ids = (run: Run) => (JSON.parse(run.stdout) as { id: string }[]).map((hit) => hit.id).sort();

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    mining: 'auto',
  });
  data = tempDir('desk-cli-query-');
  const keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username.toLowerCase());
  for (const handle of handles) {
    const bought = await cli(['buy', handle, '--all', '--yes', '--key-file', keyFile]);
    expect(bought.code, bought.stderr).toBe(0);
  }
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk search, tag and note', () => {
  it('searches with qualifiers, comparisons and boolean operators', async () => {
    const [a, b] = handles as [string, string];
    const library = JSON.parse((await cli(['library', '--json'])).stdout) as {
      id: string;
      handle: string;
      postCount: number;
    }[];
    const of = (keep: (item: (typeof library)[number]) => boolean) =>
      library
        .filter(keep)
        .map((item) => item.id)
        .sort();
    expect(ids(await cli(['search', `handle:${a}`, '--json']))).toEqual(of((i) => i.handle === a));
    expect(ids(await cli(['search', 'posts>100', 'OR', `handle:${b}`, '--json']))).toEqual(
      of((i) => i.postCount > 100 || i.handle === b),
    );
    expect(ids(await cli(['search', `(posted OR posts<0) NOT handle:${a}`, '--json']))).toEqual(
      of((i) => i.handle === b),
    );
    const human = await cli(['search', 'posted', `handle:${a}`]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('[posted]');
  });

  it('refuses a syntax error with exit code 2, the column and a caret on stderr', async () => {
    const run = await cli(['search', 'energy AND (oil OR gas))']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'intel-desk: Unexpected ")" at column 24: it closes no "(". [search_syntax]\n  energy AND (oil OR gas))\n                         ^\n',
    );
    const json = await cli(['search', 'after:yesterday', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'search_syntax',
        message: expect.stringContaining('Expected a date as YYYY-MM-DD after "after:" at column 7.'),
      },
    });
  });

  it('tags and notes a report, finds it with tag: and note:, and clears the note', async () => {
    const id = (JSON.parse((await cli(['library', '--json'])).stdout) as { id: string }[])[0]!.id;
    const tagged = await cli(['tag', id, 'add', 'Watch']);
    expect(tagged.code).toBe(0);
    expect(tagged.stdout).toContain('tags: watch');
    expect((await cli(['note', id, 'ask', 'about', 'the', 'grid'])).stdout).toContain(
      'note: ask about the grid',
    );
    expect((await cli(['note', id])).stdout).toContain('note: ask about the grid');
    expect(ids(await cli(['search', 'tag:watch', 'note:grid', '--json']))).toEqual([id]);
    expect((await cli(['search', 'tag:watch'])).stdout).toContain('#watch');
    const bad = await cli(['tag', id, 'paint', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('tag takes add or remove');
    expect((await cli(['tag', id, 'add', 'not a tag'])).code).toBe(2);
    expect((await cli(['tag', 'rpt_not_owned', 'add', 'x'])).stderr).toContain('is not in your library');
    expect((await cli(['note', id, '--clear'])).stdout).toContain('note: (none)');
    expect((await cli(['tag', id, 'remove', 'watch'])).stdout).toContain('tags: (none)');
    expect(ids(await cli(['search', 'tag:watch', '--json']))).toEqual([]);
  });
});
