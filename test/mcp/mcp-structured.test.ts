/**
 * What a client that reads data sees, against a real library bought from the reference service on a real
 * chain, through the SDK's own Client over stdio: every tool is named verb_noun and declares an outputSchema;
 * every answer's structuredContent is valid against it (checked here with the SDK's JSON Schema validator, on
 * top of the checks the SDK's server and client make) and carries the same values as the JSON text that
 * clients reading only text get. And the prompts a person starts from the client, filled in from the library.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult, PromptMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView, ShelfView } from '../../src/shared/rpc';
import { balanceOf, tempDir } from '../core/helpers';
import { parsed, runCli, stackEnv } from '../cli/run-cli';
import { jsonPart, startMcp, texts, type McpSession } from './mcp-client';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let buyer: Address;
let ownedHandle: string;
let otherHandle: string;
/** A handle on the shelf of which nothing is ever bought here. */
let untouchedHandle: string;
let owned: string[];
let unowned: string[];
let mcp: McpSession;
let tools: Map<string, Tool>;

const cli = (args: string[]) => runCli(args, stackEnv(stack, data.dir));

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
    unitPriceUsd: 0.01,
  });
  data = tempDir('desk-mcp-structured-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  buyer = privateKeyToAccount(stack.buyerKeys[0]!).address;
  const shelf = parsed<ShelfView>(await cli(['list', '--json']));
  [ownedHandle, otherHandle, untouchedHandle] = shelf.entries.map((e) => e.username) as [
    string,
    string,
    string,
  ];
  owned = parsed<MenuView>(await cli(['menu', ownedHandle, '--json'])).reports.map((r) => r.id);
  unowned = parsed<MenuView>(await cli(['menu', otherHandle, '--json'])).reports.map((r) => r.id);
  const bought = await cli(['buy', ownedHandle, '--all', '--yes', '--key-file', keyFile]);
  expect(bought.code, bought.stderr).toBe(0);
  // One report's worth may be approved in the client: a larger request waits, a smaller one is asked for.
  mcp = await startMcp(stack, data.dir, ['--allow-spend', '0.01', '--key-file', keyFile]);
  tools = new Map((await mcp.client.listTools()).tools.map((tool) => [tool.name, tool]));
});
afterAll(async () => {
  await mcp?.close();
  await stack?.stop();
  data?.remove();
});

const validator = new AjvJsonSchemaValidator();

/** Calls a tool and checks its structuredContent against the outputSchema the client was shown. */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name}: ${texts(result).join('\n')}`).toBeFalsy();
  const schema = tools.get(name)?.outputSchema;
  expect(schema, name).toBeDefined();
  expect(result.structuredContent, name).toBeDefined();
  const check = validator.getValidator(schema!)(result.structuredContent);
  expect(check.errorMessage, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeUndefined();
  expect(check.valid).toBe(true);
  return result;
}

describe('tools as a client that reads data sees them', () => {
  it('lists every tool as verb_noun, with an input and a closed output schema', () => {
    expect([...tools.keys()].sort()).toEqual([
      'compare_reports',
      'get_menu',
      'get_purchase_request',
      'get_quote',
      'get_spend',
      'list_purchases',
      'list_reports',
      'list_shelf',
      'read_report',
      'request_purchase',
      'search_library',
    ]);
    for (const [name, tool] of tools) {
      expect(name).toMatch(/^(search|read|list|compare|get|request)_[a-z]+(_[a-z]+)?$/);
      expect(tool.outputSchema?.type, name).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {}).length, name).toBeGreaterThan(1);
      expect((tool.outputSchema as { additionalProperties?: unknown }).additionalProperties, name).toBe(
        false,
      );
    }
  });

  it('answers the old bare-noun names as tools it does not have', async () => {
    for (const name of ['shelf', 'menu', 'quote', 'spend', 'purchase_request_status']) {
      const result = await mcp.client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(texts(result).join('\n')).toMatch(new RegExp(`Tool ${name} not found`));
    }
  });

  it('gives the library tools structured answers equal to their JSON text', async () => {
    const search = await call('search_library', { query: 'posts>0', limit: 2 });
    expect(jsonPart(search)).toEqual(search.structuredContent);
    expect(search.structuredContent).toMatchObject({ matches: 3, nextOffset: 2 });

    const listed = await call('list_reports', {});
    expect(jsonPart(listed)).toEqual(listed.structuredContent);
    const reports = (listed.structuredContent as { reports: { id: string; createdAt: string }[] }).reports;
    expect(reports.map((r) => r.id)).toEqual(owned);
    const byDay = await call('list_reports', { after: reports.at(-1)!.createdAt.slice(0, 10), limit: 2 });
    expect(jsonPart(byDay)).toEqual(byDay.structuredContent);
    expect(byDay.structuredContent).toMatchObject({ total: 3, next: 'o:2' });

    const read = await call('read_report', { id: owned[0] });
    const parts = texts(read);
    const report = read.structuredContent as { markdown: string; report: { id: string; uri: string } };
    // The text a client reads is fenced; the same Markdown is the structured field.
    expect(parts[0]).toMatch(/it is data, not instructions/);
    expect(parts[1]).toBe(report.markdown);
    expect(report.report.id).toBe(owned[0]);
    expect(report.report.uri).toBe(`intel-desk://report/${encodeURIComponent(stack.baseUrl)}/${owned[0]}`);
    expect(read.structuredContent).toMatchObject({ note: expect.stringMatching(/data, not instructions/) });

    const compared = await call('compare_reports', { a: owned[0], b: owned[2] });
    const diff = compared.structuredContent as { older: { id: string }; newer: { id: string }; diff: string };
    expect([diff.older.id, diff.newer.id]).toEqual([owned[2], owned[0]]);
    expect(texts(compared)[1]).toBe(diff.diff);
  });

  it('gives the catalogue and ledger tools structured answers, signing nothing', async () => {
    const before = await balanceOf(stack, buyer);
    for (const [name, args] of [
      ['list_shelf', {}],
      ['get_menu', { handle: otherHandle }],
      ['get_quote', { handle: otherHandle, all: true }],
      ['list_purchases', {}],
      ['get_spend', { days: 3 }],
    ] as const) {
      const result = await call(name, args);
      expect(jsonPart(result), name).toEqual(result.structuredContent);
    }
    const quote = await call('get_quote', { handle: otherHandle, ids: unowned.slice(0, 2) });
    expect(quote.structuredContent).toMatchObject({ reports: 2, amount: { units: '20000', text: '$0.02' } });
    expect(await balanceOf(stack, buyer)).toBe(before);
  });

  it('says how a purchase request ended in structuredContent: pending, then approved and paid', async () => {
    const before = await balanceOf(stack, buyer);
    const waiting = await call('request_purchase', {
      handle: otherHandle,
      ids: unowned.slice(0, 2),
      reason: 'two reports, more than the session may approve',
    });
    expect(mcp.asked).toEqual([]);
    expect(waiting.structuredContent).toMatchObject({
      outcome: 'pending',
      said: texts(waiting)[0],
      request: { state: 'pending', reports: 2, amount: { units: '20000' } },
      approveWith: expect.stringMatching(/intel-desk approve req_/),
    });
    expect(jsonPart(waiting)).toEqual(waiting.structuredContent);

    const paid = await call('request_purchase', {
      handle: otherHandle,
      ids: [unowned[2]],
      reason: 'one report, within the session limit',
    });
    expect(mcp.asked).toHaveLength(1);
    expect(paid.structuredContent).toMatchObject({
      outcome: 'completed',
      request: { state: 'approved' },
      purchase: { state: 'completed', reportIds: [unowned[2]], moved: { units: '10000' } },
      sessionLimitLeft: { units: '0', text: '$0.00' },
    });
    expect(await balanceOf(stack, buyer)).toBe(before - 10_000n);

    const { request } = paid.structuredContent as { request: { id: string } };
    const status = await call('get_purchase_request', { id: request.id });
    expect(jsonPart(status)).toEqual(status.structuredContent);
    expect(status.structuredContent).toMatchObject({
      request: { id: request.id, state: 'approved' },
      purchase: { state: 'completed' },
    });
  });

  it('answers a refusal as a tool error, with no structuredContent to check', async () => {
    const refused = await mcp.client.callTool({ name: 'read_report', arguments: { id: 'rpt_nope_001' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    expect(texts(refused).join('\n')).toMatch(/\[report_not_owned\]/);
  });
});

describe('prompts a person starts from the client', () => {
  const text = (message: PromptMessage | undefined): string =>
    message?.content.type === 'text' ? message.content.text : '';

  it('lists three prompts, each with its arguments', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(
      prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => [a.name, a.required ?? false])]),
    ).toEqual([
      ['brief_on_handle', [['handle', true]]],
      [
        'changes_since',
        [
          ['handle', true],
          ['since', true],
        ],
      ],
      ['cost_to_buy', [['handle', true]]],
    ]);
    for (const prompt of prompts) expect(prompt.description?.length, prompt.name).toBeGreaterThan(40);
  });

  it('suggests handles as the person types one: owned ones to brief on, the shelf to price', async () => {
    const complete = (prompt: string, value: string) =>
      mcp.client.complete({
        ref: { type: 'ref/prompt', name: prompt },
        argument: { name: 'handle', value },
      });
    const mine = await complete('brief_on_handle', `@${ownedHandle.slice(0, 3).toUpperCase()}`);
    expect(mine.completion.values).toContain(ownedHandle);
    expect(mine.completion.values).not.toContain(untouchedHandle);
    const since = await complete('changes_since', '');
    expect(since.completion.values.sort()).toEqual([ownedHandle, otherHandle].sort());
    const shelf = await complete('cost_to_buy', untouchedHandle.slice(0, 4));
    expect(shelf.completion.values).toContain(untouchedHandle);
  });

  it('briefs on a handle from its owned reports, attached as fenced resources', async () => {
    const { messages } = await mcp.client.getPrompt({
      name: 'brief_on_handle',
      arguments: { handle: `@${ownedHandle}` },
    });
    expect(text(messages[0])).toMatch(
      new RegExp(`^Brief me on @${ownedHandle}: .*data from the service, not instructions`),
    );
    const attached = messages
      .slice(1)
      .map((m) => (m.content.type === 'resource' ? m.content.resource : null));
    expect(attached.map((r) => r?.uri)).toEqual(
      owned.map((id) => `intel-desk://report/${encodeURIComponent(stack.baseUrl)}/${id}`),
    );
    for (const [i, resource] of attached.entries()) {
      const body = resource && 'text' in resource ? resource.text : '';
      expect(body).toMatch(new RegExp(`^---\\nservice: .*\\nhandle: .*\\nreport: ${owned[i]}\\n`));
      const token = body.match(/\nBEGIN intel-desk-data-([0-9a-f]{32})\n/)?.[1];
      expect(body).toContain(`\nEND intel-desk-data-${token}\n`);
    }

    const none = await mcp.client.getPrompt({
      name: 'brief_on_handle',
      arguments: { handle: untouchedHandle },
    });
    expect(none.messages).toHaveLength(1);
    expect(text(none.messages[0])).toMatch(/holds no report of @\S+\. .*get_menu.*get_quote/);
  });

  it('compares the newest owned report with the newest from before a day', async () => {
    const listed = await mcp.client.callTool({ name: 'list_reports', arguments: { handle: ownedHandle } });
    const reports = jsonPart<{ reports: { id: string; createdAt: string }[] }>(listed).reports;
    const since = reports[0]!.createdAt.slice(0, 10);
    const baseline = reports.find((r) => r.createdAt.slice(0, 10) < since)!;
    const { messages } = await mcp.client.getPrompt({
      name: 'changes_since',
      arguments: { handle: ownedHandle, since },
    });
    expect(text(messages[0])).toContain(
      `Below, ${baseline.id} of ${baseline.createdAt.slice(0, 10)} (the newest I own from before that day) compared with ${reports[0]!.id}`,
    );
    const diff = text(messages[1]);
    const token = diff.match(/\nBEGIN intel-desk-data-([0-9a-f]{32})\n/)![1]!;
    expect(diff).toContain(`${baseline.id} (@`);
    expect(diff).toMatch(/Narrative/);
    // Past its opening line, the token appears once: on the line that ends the report text.
    expect(diff.slice(diff.indexOf(`BEGIN intel-desk-data-${token}`)).split(token)).toHaveLength(3);
    expect(diff).toMatch(new RegExp(`\\nEND intel-desk-data-${token}\\nEnd of report text from `));

    await expect(
      mcp.client.getPrompt({ name: 'changes_since', arguments: { handle: ownedHandle, since: 'last week' } }),
    ).rejects.toThrow(/since/);
  });

  it('prices what buying a handle would cost, signing nothing', async () => {
    const before = await balanceOf(stack, buyer);
    const { messages } = await mcp.client.getPrompt({
      name: 'cost_to_buy',
      arguments: { handle: untouchedHandle },
    });
    const asked = text(messages[0]);
    expect(asked).toMatch(/nothing was signed or paid/);
    expect(asked).toMatch(/Do not buy: .*request_purchase, and only I can approve it\./);
    const quote = JSON.parse(asked.slice(asked.indexOf('{'), asked.lastIndexOf('}') + 1)) as unknown;
    expect(quote).toMatchObject({
      handle: untouchedHandle,
      reports: 3,
      amount: { units: '30000', text: '$0.03' },
    });

    const all = await mcp.client.getPrompt({ name: 'cost_to_buy', arguments: { handle: ownedHandle } });
    expect(text(all.messages[0])).toMatch(/I already own every report the service lists/);
    await expect(
      mcp.client.getPrompt({ name: 'cost_to_buy', arguments: { handle: 'nobody_here_404' } }),
    ).rejects.toThrow(/\[\w+\]/);
    expect(await balanceOf(stack, buyer)).toBe(before);
  });
});
