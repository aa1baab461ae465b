import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { Bundle } from '../../src/shared/wire';
import { tempDir } from '../core/helpers';
import { runCli, type Run } from './run-cli';

let stack: Stack;
let handles: string[];

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 2 } });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
});
afterAll(async () => {
  await stack?.stop();
});

/** Another editor, straight at the bundle route. */
async function serviceBundle(handle: string): Promise<Bundle> {
  const answer = await fetch(`${stack.baseUrl}/api/intel/bundle?username=${handle}`, {
    headers: { Authorization: `Bearer ${stack.librarySecret}` },
  });
  return (await answer.json()) as Bundle;
}
async function otherEditorSaves(bundle: Bundle): Promise<void> {
  const answer = await fetch(`${stack.baseUrl}/api/intel/bundle?username=${bundle.username}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${stack.librarySecret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(bundle),
  });
  expect(((await answer.json()) as { written: boolean }).written).toBe(true);
}

function cliIn(dataDir: string) {
  return (args: string[], env: Record<string, string> = {}): Promise<Run> =>
    runCli(args, {
      INTEL_DESK_SERVICE_URL: stack.baseUrl,
      INTEL_DESK_DATA_DIR: dataDir,
      INTEL_DESK_DEMO: '1',
      INTEL_DESK_LIBRARY_SECRET: stack.librarySecret,
      ...env,
    });
}

describe('intel-desk bundle put', () => {
  it("refuses a file for another handle and never overwrites that handle's newer save", async () => {
    const data = tempDir('desk-cli-bundle-');
    try {
      const cli = cliIn(data.dir);
      const [dara, kira] = [handles[0]!, handles[1]!];
      // Both dossiers gathered at the same moment, so a check against the wrong one would pass.
      const [darasBundle, kirasBundle] = [await serviceBundle(dara), await serviceBundle(kira)];
      const same = new Date(
        Math.max(Date.parse(darasBundle.gatheredAt), Date.parse(kirasBundle.gatheredAt)) + 1,
      ).toISOString();
      await otherEditorSaves({ ...darasBundle, gatheredAt: same });
      await otherEditorSaves({ ...kirasBundle, gatheredAt: same });

      const fetched = await cli(['bundle', 'get', kira]);
      expect(fetched.code).toBe(0);
      const file = path.join(data.dir, 'kira.json');
      writeFileSync(file, fetched.stdout);
      const newer = { ...(JSON.parse(fetched.stdout) as Bundle) };
      newer.gatheredAt = new Date(Date.parse(same) + 1).toISOString();
      newer.posts = [...newer.posts, { id: 'post_colleague', text: 'Saved by a colleague' }];
      await otherEditorSaves(newer);

      const wrong = await cli(['bundle', 'put', dara, file]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain(`@${kira}'s dossier, not @${dara}'s`);
      expect(await serviceBundle(kira)).toEqual(newer);
      expect((await serviceBundle(dara)).gatheredAt).toBe(same);

      // The right handle, spelled as the service allows, runs the conflict check against that handle.
      const right = await cli(['bundle', 'put', `@${kira.toLowerCase()}`, file]);
      expect(right.code).toBe(3);
      expect(right.stderr).toMatch(/changed on the service/);
      expect(await serviceBundle(kira)).toEqual(newer);
    } finally {
      data.remove();
    }
  });
});
