/**
 * What an MCP session may approve (--allow-spend) counts money that may have moved: an approval that ends in
 * doubt (the service settled on chain, its answer never came) keeps its amount against the session's limit,
 * so the person is not asked again for what the limit no longer covers. Checked on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, firstHandle, ledgerRows, tempDir } from '../core/helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from '../core/hostile-proxy';
import { startMcp, texts } from './mcp-client';

let stack: Stack;
let lost: HostileProxy;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
    unitPriceUsd: 0.01,
  });
  data = tempDir('desk-mcp-in-doubt-');
  keyFile = path.join(data.dir, 'assistant.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  ({ handle, ids } = await firstHandle(stack));
  // The service settles each payment, then its answer never arrives, and it keeps none to ask for again.
  lost = await startHostileProxy(stack.baseUrl);
  lost.beforePaidAnswer = () => new Promise<void>(() => undefined);
  lost.mutate = withoutPaymentIdentifier;
});
afterAll(async () => {
  await lost?.close();
  await stack?.stop();
  data?.remove();
});

describe('an approval in doubt', () => {
  it('keeps its amount against the session limit: the next request is not asked for', async () => {
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const mcp = await startMcp(
      stack,
      data.dir,
      ['--allow-spend', '0.015', '--key-file', keyFile, '--timeout', '2'],
      { env: { INTEL_DESK_SERVICE_URL: lost.url } },
    );
    try {
      const before = await balanceOf(stack, payer);
      const first = await mcp.client.callTool({
        name: 'request_purchase',
        arguments: { handle, ids: [ids[0]], reason: 'the newest' },
      });
      expect(texts(first)[0]).toMatch(/^The person approved, and the purchase is IN DOUBT/);
      expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
      expect(ledgerRows(data.dir).map((row) => row.state)).toEqual(['in_doubt']);

      const second = await mcp.client.callTool({
        name: 'request_purchase',
        arguments: { handle, ids: [ids[1]], reason: 'one more' },
      });
      expect(mcp.asked).toHaveLength(1);
      expect(texts(second)[0]).toMatch(
        /^Nothing was bought and no money moved\..*more than this session may still approve \(\$0\.005 of its \$0\.015 limit\)/,
      );
      expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
    } finally {
      await mcp.close();
    }
  });
});
