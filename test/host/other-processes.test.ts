/**
 * The window (browser mode: core in its worker behind the web host, events on the host's stream) and CLI runs
 * on one data folder. A purchase the CLI makes reaches the window's stream without the window asking, and the
 * two buying the same reports at the same moment pay once, checked on the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startStack, type Stack } from '../../src/service/stack';
import { startDeskHost, type DeskHost } from '../../src/host/desk-host';
import { TOKEN_HEADER } from '../../src/shared/bridge';
import { deskEventSchema, EVENTS_PATH, type DeskEvent } from '../../src/shared/events';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { deskOptions, ledgerRows, tempDir } from '../core/helpers';
import { runCli, stackEnv } from '../cli/run-cli';
import { startMcp } from '../mcp/mcp-client';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

let stack: Stack;
let desk: DeskHost;
const dir = tempDir('desk-other-processes-');
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 13, maxReportsPerHandle: 13 },
    buyerCount: 1,
  });
  desk = await startDeskHost({
    core: deskOptions(stack, dir.dir),
    rendererDir: dir.dir,
    demoKey: stack.buyerKeys[0]! as `0x${string}`,
  });
  handle = (await desk.core.handlers['shelf.list']({})).entries[0]!.username;
  ids = (await desk.core.handlers['menu.get']({ handle })).reports.map((report) => report.id);
}, 120_000);

afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  dir.remove();
});

const cliEnv = () => ({ ...stackEnv(stack, dir.dir), INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[0]! });

/** The window's event stream, as the page reads it; `next` resolves on the first event that matches. */
function openStream(): Promise<{ next(test: (e: DeskEvent) => boolean): Promise<DeskEvent>; close(): void }> {
  return new Promise((resolve, reject) => {
    const waiting: { test: (e: DeskEvent) => boolean; done: (e: DeskEvent) => void }[] = [];
    const req = request(
      {
        host: '127.0.0.1',
        port: desk.host.port,
        path: EVENTS_PATH,
        headers: { Host: `127.0.0.1:${desk.host.port}`, [TOKEN_HEADER]: desk.host.token },
      },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const data = buffer
              .slice(0, end)
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice('data: '.length))
              .join('\n');
            buffer = buffer.slice(end + 2);
            if (!data) continue;
            const event = deskEventSchema.parse(JSON.parse(data));
            for (const w of waiting.splice(0)) {
              if (w.test(event)) w.done(event);
              else waiting.push(w);
            }
          }
        });
        resolve({
          next: (test) => new Promise((done) => waiting.push({ test, done })),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (error) => {
      if (!('code' in error && error.code === 'ECONNRESET')) reject(error);
    });
    req.end();
  });
}

describe('the window and the CLI on one data folder', () => {
  it("tells the window of the CLI's purchase without the window asking", async () => {
    const stream = await openStream();
    try {
      const purchases = stream.next((e) => e.type === 'purchases.changed');
      const library = stream.next((e) => e.type === 'library.changed');
      const run = await runCli(['buy', handle, '--ids', ids[0]!, '--yes', '--json'], cliEnv());
      expect(run.code, run.stderr).toBe(0);
      await Promise.all([purchases, library]);
      // And what the window then asks for shows it.
      const owned = await desk.core.handlers['library.list']({ handle });
      expect(owned.items.map((item) => item.id)).toContain(ids[0]);
    } finally {
      stream.close();
    }
  });

  it('the window and a CLI run buying the same reports at once pay once', async () => {
    for (const id of ids.slice(1, 6)) {
      const settledBefore = (await settlementsOnChain(stack.chain)).length;
      const quote = await desk.core.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
      const [window, cli] = await Promise.allSettled([
        desk.core.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
        runCli(['buy', handle, '--ids', id, '--yes', '--json'], cliEnv()),
      ]);
      const windowPaid = window.status === 'fulfilled' && window.value.status === 'completed';
      const cliPaid = cli.status === 'fulfilled' && cli.value.code === 0;
      expect([windowPaid, cliPaid].filter(Boolean)).toHaveLength(1);
      expect((await settlementsOnChain(stack.chain)).length - settledBefore).toBe(1);
    }
    const rows = ledgerRows(dir.dir);
    expect(rows.filter((row) => row.state === 'completed')).toHaveLength(6);
    expect(rows.every((row) => row.state === 'completed')).toBe(true);
  });

  it("an assistant's request approved in the window and a CLI buy of the same reports pay once", async () => {
    for (const id of ids.slice(6, 9)) {
      const settledBefore = (await settlementsOnChain(stack.chain)).length;
      const request = await desk.core.handlers['purchaseRequest.create']({
        handle,
        selection: { kind: 'ids', ids: [id] },
        reason: 'race test',
      });
      const [approval, cli] = await Promise.allSettled([
        desk.core.handlers['purchaseRequest.approve']({ id: request.id }),
        runCli(['buy', handle, '--ids', id, '--yes', '--json'], cliEnv()),
      ]);
      const approvalPaid = approval.status === 'fulfilled' && approval.value.outcome.status === 'completed';
      const cliPaid = cli.status === 'fulfilled' && cli.value.code === 0;
      expect([approvalPaid, cliPaid].filter(Boolean)).toHaveLength(1);
      expect((await settlementsOnChain(stack.chain)).length - settledBefore).toBe(1);
    }
  });

  it('the MCP server approving in its client, a CLI run and the window, buying the same reports at once, pay once', async () => {
    const keyFile = path.join(dir.dir, 'assistant.key');
    writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
    const mcp = await startMcp(stack, dir.dir, ['--allow-spend', '1', '--key-file', keyFile]);
    try {
      for (const id of ids.slice(9, 12)) {
        const settledBefore = (await settlementsOnChain(stack.chain)).length;
        const quote = await desk.core.handlers['quote.get']({
          handle,
          selection: { kind: 'ids', ids: [id] },
        });
        await Promise.allSettled([
          mcp.client.callTool({ name: 'request_purchase', arguments: { handle, ids: [id], reason: 'race' } }),
          runCli(['buy', handle, '--ids', id, '--yes', '--json'], cliEnv()),
          desk.core.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
        ]);
        // Whoever won, the chain holds one payment for the report, and the library owns it.
        expect((await settlementsOnChain(stack.chain)).length - settledBefore).toBe(1);
        const owned = await desk.core.handlers['library.list']({ handle });
        expect(owned.items.filter((item) => item.id === id)).toHaveLength(1);
      }
      expect(
        ledgerRows(dir.dir).filter((row) => row.state !== 'completed' && row.state !== 'failed'),
      ).toEqual([]);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
