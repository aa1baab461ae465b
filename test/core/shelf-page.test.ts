/**
 * The Shelf screen's shelf: core fetches and checks it once (shelf.summary) and answers pages of it, filtered
 * and sorted as the renderer's rule says, without asking the service again; a changed shelf gets a new version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { filterShelf, indexShelf, shelfNeedle, SHELF_SORTS } from '../../src/shared/shelf-filter';
import { ShelfMatcher } from '../../src/renderer/screens/shelf-matcher';
import { deskFor, tempDir } from './helpers';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';

let stack: Stack;
let service: FlakyProxy;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 40, minReportsPerHandle: 1, maxReportsPerHandle: 3 } });
  service = await startFlakyProxy(stack.baseUrl);
});
afterAll(async () => {
  await service?.close();
  await stack?.stop();
});

describe('the shelf, a page at a time', () => {
  it("gives the window what the filter matches, so its count of each keystroke is core's", async () => {
    const dir = tempDir('desk-shelf-haystacks-');
    const desk = await deskFor({ ...stack, baseUrl: service.url }, dir.dir);
    try {
      const summary = await desk.handlers['shelf.summary']({ firstPage: 12 });
      const { version, haystacks } = await desk.handlers['shelf.haystacks']({ version: summary.version });
      expect(version).toBe(summary.version);
      expect(haystacks).toHaveLength(summary.total);
      const matcher = new ShelfMatcher(haystacks);
      const name = (await desk.handlers['shelf.page']({ offset: 5, limit: 1 })).entries[0]!.username;
      // Typed key by key, then narrowed past any match, widened again, and cleared, as a person types.
      const typed = [...name].map((_, i) => name.slice(0, i + 1));
      for (const text of [...typed, `${name}zzz`, name.slice(0, 2), `@${name.toUpperCase()}`, '']) {
        const page = await desk.handlers['shelf.page']({ text, offset: 0, limit: 1 });
        expect(matcher.count(shelfNeedle(text)), text).toBe(page.matched);
      }
    } finally {
      await desk.close();
      dir.remove();
    }
  });

  it('pages, filters and sorts as the shared rule does, from the copy core holds', async () => {
    const dir = tempDir('desk-shelf-page-');
    const desk = await deskFor({ ...stack, baseUrl: service.url }, dir.dir);
    try {
      const all = (await desk.handlers['shelf.list']({})).entries;
      const summary = await desk.handlers['shelf.summary']({ firstPage: 12 });
      expect(summary).toMatchObject({ configured: true, stale: false, total: all.length });
      expect(summary.first).toEqual(
        await desk.handlers['shelf.page']({ text: '', sort: 'updated', offset: 0, limit: 12 }),
      );
      const index = indexShelf(all);
      const needle = all[7]!.username.slice(0, 3).toUpperCase();
      for (const sort of SHELF_SORTS) {
        for (const text of ['', needle, `@${all[3]!.username}`, 'no handle has this']) {
          const expected = filterShelf(index, text, sort);
          const pages = [];
          for (let offset = 0; offset < Math.max(expected.length, 1); offset += 15) {
            const page = await desk.handlers['shelf.page']({ text, sort, offset, limit: 15 });
            expect(page).toMatchObject({
              version: summary.version,
              matched: expected.length,
              total: all.length,
            });
            pages.push(...page.entries);
          }
          expect(pages.map((entry) => entry.username)).toEqual(expected.map((entry) => entry.username));
        }
      }

      // Pages come from core's copy: with the service away they are still answered, and not marked stale.
      service.down();
      const offline = await desk.handlers['shelf.page']({ offset: 0, limit: 5 });
      expect(offline.entries.map((entry) => entry.username)).toEqual(all.slice(0, 5).map((e) => e.username));
    } finally {
      await service.up().catch(() => undefined);
      await desk.close();
      dir.remove();
    }
  });

  it('gives a changed shelf a new version, and pages show the change', async () => {
    const dir = tempDir('desk-shelf-page-');
    const desk = await deskFor(stack, dir.dir);
    try {
      const before = await desk.handlers['shelf.summary']({});
      expect((await desk.handlers['shelf.summary']({})).version).toBe(before.version);
      const handle = (await desk.handlers['shelf.page']({ offset: 0, limit: 1 })).entries[0]!.username;
      const auth = { Authorization: `Bearer ${stack.librarySecret}` };
      const bundleUrl = `${stack.baseUrl}/api/intel/bundle?username=${handle}`;
      const bundle = (await (await fetch(bundleUrl, { headers: auth })).json()) as Record<string, unknown>;
      const profile = {
        ...(bundle['profile'] as Record<string, unknown>),
        displayName: 'Zebulon Pagewright',
      };
      const put = await fetch(bundleUrl, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ ...bundle, profile, gatheredAt: '2099-01-01T00:00:00.000Z' }),
      });
      expect(put.status).toBe(200);
      const after = await desk.handlers['shelf.summary']({});
      expect(after.version).not.toBe(before.version);
      const found = await desk.handlers['shelf.page']({ text: 'pagewright', offset: 0, limit: 10 });
      expect(found).toMatchObject({ version: after.version, matched: 1 });
      expect(found.entries[0]).toMatchObject({ username: handle, displayName: 'Zebulon Pagewright' });
    } finally {
      await desk.close();
      dir.remove();
    }
  });
});

describe('a menu names its handle without the whole shelf', () => {
  it('takes the display name from the shelf core holds, or from the saved shelf in a new process', async () => {
    const dir = tempDir('desk-menu-name-');
    try {
      const desk = await deskFor(stack, dir.dir);
      const { first } = await desk.handlers['shelf.summary']({ firstPage: 5 });
      const entry = first!.entries.find((e) => e.displayName !== '') ?? first!.entries[0]!;
      const menu = await desk.handlers['menu.get']({ handle: entry.username.toUpperCase() });
      expect(menu.displayName).toBe(entry.displayName || null);
      await desk.close();
      // A new desk (the CLI, a restart) holds no shelf in memory: the saved one names the handle.
      const again = await deskFor(stack, dir.dir);
      try {
        expect((await again.handlers['menu.get']({ handle: entry.username })).displayName).toBe(
          entry.displayName || null,
        );
      } finally {
        await again.close();
      }
    } finally {
      dir.remove();
    }
  });
});
