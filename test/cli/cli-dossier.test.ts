import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { Bundle } from '../../src/shared/wire';
import { tempDir } from '../core/helpers';
import { runCli, type Run } from './run-cli';

let stack: Stack;
let handles: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 2,
  });
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
  return (args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> =>
    runCli(
      args,
      {
        INTEL_DESK_SERVICE_URL: stack.baseUrl,
        INTEL_DESK_DATA_DIR: dataDir,
        INTEL_DESK_DEMO: '1',
        INTEL_DESK_DEMO_ASSET: stack.asset,
        INTEL_DESK_LIBRARY_SECRET: stack.librarySecret,
        // The run names the stack's service, not the saved one: the secret is bound to it by name.
        INTEL_DESK_LIBRARY_SECRET_ORIGIN: stack.baseUrl,
        ...env,
      },
      undefined,
      input,
    );
}

const NO_SECRET = { INTEL_DESK_LIBRARY_SECRET: '' };

async function firstReports(handle: string): Promise<string[]> {
  const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json()) as {
    reports: { id: string }[];
  };
  return menu.reports.map((report) => report.id);
}

describe('intel-desk and the library secret', () => {
  it('uses INTEL_DESK_LIBRARY_SECRET for that command only, and pays as usual without it', async () => {
    const data = tempDir('desk-cli-secret-');
    try {
      const cli = cliIn(data.dir);
      const keyFile = path.join(data.dir, 'buyer.key');
      writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
      const handle = handles[2]!;
      const [first, second] = await firstReports(handle);

      expect((await cli(['bundle', 'get', handle])).code).toBe(0);
      expect(existsSync(path.join(data.dir, 'library-secret.sealed'))).toBe(false);
      const without = await cli(['bundle', 'get', handle], NO_SECRET);
      expect(without.code).toBe(2);
      expect(without.stderr).toContain('intel-desk secret set');
      expect(without.stderr).not.toMatch(/Settings/);

      const read = await cli(['buy', handle, '--ids', first!, '--yes', '--key-file', keyFile]);
      expect(read.code).toBe(0);
      expect(read.stdout).toMatch(/read 1 report with the library secret; nothing was paid/);
      const bought = await cli(['buy', handle, '--ids', second!, '--yes', '--key-file', keyFile], NO_SECRET);
      expect(bought.code).toBe(0);
      expect(bought.stderr).toMatch(/paying \$0\.01/);
      expect(bought.stdout).toMatch(/bought 1 report for \$0\.01/);
    } finally {
      data.remove();
    }
  }, 300_000);

  it('with a stored secret: quote says buy reads it free, and buy --pay pays anyway', async () => {
    const data = tempDir('desk-cli-secret-');
    try {
      const cli = cliIn(data.dir);
      const keyFile = path.join(data.dir, 'buyer.key');
      writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
      const handle = handles[1]!;
      const [first, second] = await firstReports(handle);
      expect((await cli(['secret', 'set'], NO_SECRET, `${stack.librarySecret}\n`)).code).toBe(0);

      const quoted = await cli(['quote', handle, '--ids', first!], NO_SECRET);
      expect(quoted.stdout).toContain(
        'buy will read it with the library secret: nothing is paid (buy --pay pays $0.01 instead)',
      );
      const read = await cli(['buy', handle, '--ids', first!, '--yes'], NO_SECRET);
      expect(read.stdout).toMatch(/read 1 report with the library secret; nothing was paid/);

      const quotedToPay = await cli(['quote', handle, '--ids', second!, '--pay'], NO_SECRET);
      expect(quotedToPay.stdout).toContain('buy --pay pays this instead of reading with the library secret');
      const paid = await cli(
        ['buy', handle, '--ids', second!, '--yes', '--pay', '--key-file', keyFile],
        NO_SECRET,
      );
      expect(paid.code, paid.stderr).toBe(0);
      expect(paid.stderr).toMatch(/paying \$0\.01 for 1 report/);
      expect(paid.stdout).toMatch(/bought 1 report for \$0\.01: purchase /);

      const help = await cli(['buy', '--help'], NO_SECRET);
      expect(help.stdout).toMatch(
        /with a library secret set they are read with it and nothing is\s+paid, unless --pay/,
      );
      expect(help.stdout).toMatch(
        /^ {2}--pay +pay even when the library secret would read the reports for free$/m,
      );
    } finally {
      data.remove();
    }
  }, 300_000);

  it('stores a secret only with `secret set` from stdin, keeps a refused one refused, and forgets it on `secret clear`', async () => {
    const data = tempDir('desk-cli-secret-');
    try {
      const cli = cliIn(data.dir);
      const keyFile = path.join(data.dir, 'buyer.key');
      writeFileSync(keyFile, stack.buyerKeys[1]!, { mode: 0o600 });
      const handle = handles[2]!;
      const [, , third] = await firstReports(handle);

      const wrong = await cli(['secret', 'set'], NO_SECRET, 'not the secret\n');
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toMatch(/refused/);
      expect(wrong.stderr).toContain('intel-desk secret set');
      const status = await cli(['secret', 'status', '--json'], NO_SECRET);
      expect(JSON.parse(status.stdout)).toEqual({
        stored: true,
        origin: new URL(stack.baseUrl).origin,
        accepted: false,
      });
      const refusedBundle = await cli(['bundle', 'get', handle], NO_SECRET);
      expect(refusedBundle.code).toBe(2);
      expect(refusedBundle.stderr).not.toMatch(/Settings/);
      const bought = await cli(['buy', handle, '--ids', third!, '--yes', '--key-file', keyFile], NO_SECRET);
      expect(bought.stdout).toMatch(/bought 1 report for \$0\.01/);

      const right = await cli(['secret', 'set'], NO_SECRET, `${stack.librarySecret}\n`);
      expect(right.code).toBe(0);
      expect(right.stdout).toMatch(/accepted by the service/);
      expect((await cli(['bundle', 'get', handle], NO_SECRET)).code).toBe(0);
      expect((await cli(['secret', 'clear'], NO_SECRET)).code).toBe(0);
      expect(existsSync(path.join(data.dir, 'library-secret.sealed'))).toBe(false);
    } finally {
      data.remove();
    }
  }, 300_000);
});

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
      expect(right.code).toBe(6);
      expect(right.stderr).toMatch(/changed on the service/);
      expect(await serviceBundle(kira)).toEqual(newer);
    } finally {
      data.remove();
    }
  }, 300_000);
});
