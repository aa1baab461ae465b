/**
 * A handle bought after the shelf was fetched gets its display name in the Library at once: the purchase
 * saves it from the shelf the desk holds, rather than waiting for the next whole-shelf fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { buyAll, deskWithWallet, tempDir } from './helpers';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 1, maxReportsPerHandle: 1 },
    buyerCount: 1,
  });
});
afterAll(async () => {
  await stack?.stop();
});

describe('display names of handles bought', () => {
  it('are saved when a purchase stores the reports', async () => {
    const data = tempDir('desk-handle-names-');
    try {
      const { desk } = await deskWithWallet(stack, data.dir);
      const shelf = await desk.handlers['shelf.list']({});
      const entry = shelf.entries[0]!;
      expect(entry.displayName).toBeTruthy();
      expect((await desk.handlers['library.handles']({})).handles).toEqual([]);
      const { outcome } = await buyAll(desk, entry.username);
      expect(outcome.status).toBe('completed');
      const named = (await desk.handlers['library.handles']({})).handles;
      expect(named.map((h) => [h.username, h.displayName])).toEqual([[entry.username, entry.displayName]]);
      const page = await desk.handlers['library.list']({});
      expect(page.items[0]!.displayName).toBe(entry.displayName);
      await desk.close();
    } finally {
      data.remove();
    }
  });
});
