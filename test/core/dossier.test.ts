import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { DeskError } from '../../src/core/base/errors';
import type { Bundle } from '../../src/shared/wire';
import { deskFor, failure, firstHandle, tempDir } from './helpers';

let stack: Stack;
let handle: string;
const dirs: ReturnType<typeof tempDir>[] = [];

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 4 } });
  ({ handle } = await firstHandle(stack));
});
afterAll(async () => {
  await stack?.stop();
  dirs.forEach((dir) => dir.remove());
});

async function editor(options: { fetch?: typeof fetch; dataDir?: string } = {}) {
  const dir = tempDir('desk-dossier-');
  dirs.push(dir);
  const desk = await deskFor(
    stack,
    options.dataDir ?? dir.dir,
    options.fetch ? { fetch: options.fetch } : {},
  );
  await desk.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
  return desk;
}

const withPost = (bundle: Bundle, text: string): Bundle => ({
  ...bundle,
  posts: [...bundle.posts, { id: `post_${text}`, text }],
});

describe('dossier editing through the bundle route', () => {
  it('edits and saves, moving gatheredAt forward', async () => {
    const desk = await editor();
    const opened = await desk.handlers['dossier.open']({ handle });
    expect(opened.draft).toBeNull();
    const saved = await desk.handlers['dossier.save']({
      handle,
      bundle: withPost(opened.bundle, 'first edit'),
      baseGatheredAt: opened.bundle.gatheredAt,
    });
    expect(saved.status).toBe('saved');
    if (saved.status !== 'saved') return;
    expect(Date.parse(saved.bundle.gatheredAt)).toBeGreaterThan(Date.parse(opened.bundle.gatheredAt));
    const reread = await desk.handlers['dossier.open']({ handle });
    expect(reread.bundle.posts.at(-1)).toEqual({ id: 'post_first edit', text: 'first edit' });
    await desk.close();
  });

  it('lets two editors race: the second save sees the conflict with base, theirs and mine, and nothing is lost', async () => {
    const alice = await editor();
    const bob = await editor();
    const aliceOpen = await alice.handlers['dossier.open']({ handle });
    const bobOpen = await bob.handlers['dossier.open']({ handle });
    await bob.handlers['dossier.saveDraft']({ handle, draft: withPost(bobOpen.bundle, 'bob') });
    const aliceSave = await alice.handlers['dossier.save']({
      handle,
      bundle: withPost(aliceOpen.bundle, 'alice'),
      baseGatheredAt: aliceOpen.bundle.gatheredAt,
    });
    expect(aliceSave.status).toBe('saved');
    const bobSave = await bob.handlers['dossier.save']({
      handle,
      bundle: withPost(bobOpen.bundle, 'bob'),
      baseGatheredAt: bobOpen.bundle.gatheredAt,
    });
    expect(bobSave.status).toBe('conflict');
    if (bobSave.status !== 'conflict') return;
    expect(bobSave.base.gatheredAt).toBe(bobOpen.bundle.gatheredAt);
    expect(bobSave.theirs.posts.at(-1)).toMatchObject({ text: 'alice' });
    expect(bobSave.mine.posts.at(-1)).toMatchObject({ text: 'bob' });
    // Bob merges both and saves against what the service now holds.
    const merged = withPost(bobSave.theirs, 'bob');
    const resolved = await bob.handlers['dossier.save']({
      handle,
      bundle: merged,
      baseGatheredAt: bobSave.theirs.gatheredAt,
    });
    expect(resolved.status).toBe('saved');
    const final = await alice.handlers['dossier.open']({ handle });
    expect(final.bundle.posts.map((p) => p['text']).slice(-2)).toEqual(['alice', 'bob']);
    await alice.close();
    await bob.close();
  });

  it('reports a save the service did not write', async () => {
    // Another writer lands between our re-read and our PUT, with a gatheredAt far in the future.
    const racing: typeof fetch = async (input, init) => {
      if (init?.method === 'PUT') {
        const theirs = JSON.parse(String(init.body)) as Bundle;
        await fetch(String(input), {
          method: 'PUT',
          headers: { Authorization: `Bearer ${stack.librarySecret}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...theirs, posts: [], gatheredAt: '2099-01-01T00:00:00.000Z' }),
        });
      }
      return fetch(input, init);
    };
    const desk = await editor({ fetch: racing });
    const other = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
      entries: { username: string }[];
    };
    const target = other.entries[1]!.username;
    const opened = await desk.handlers['dossier.open']({ handle: target });
    const answer = await desk.handlers['dossier.save']({
      handle: target,
      bundle: withPost(opened.bundle, 'lost?'),
      baseGatheredAt: opened.bundle.gatheredAt,
    });
    expect(answer.status).toBe('not_written');
    if (answer.status === 'not_written') expect(answer.message).toMatch(/did not write/);
    await desk.close();
  });

  it("refuses a draft or a save whose username is another handle's", async () => {
    const desk = await editor();
    const opened = await desk.handlers['dossier.open']({ handle });
    const other = (await desk.handlers['shelf.list']({})).entries.find(
      (e) => e.username !== handle,
    )!.username;
    const draft = await failure(desk.handlers['dossier.saveDraft']({ handle: other, draft: opened.bundle }));
    expect(draft.code).toBe('bundle_handle_mismatch');
    const save = await failure(
      desk.handlers['dossier.save']({
        handle: other,
        bundle: opened.bundle,
        baseGatheredAt: opened.bundle.gatheredAt,
      }),
    );
    expect(save.message).toBe(`This is @${handle}'s dossier, not @${other}'s; nothing was saved.`);
    const same = await desk.handlers['dossier.save']({
      handle: `@${handle.toUpperCase()}`,
      bundle: opened.bundle,
      baseGatheredAt: opened.bundle.gatheredAt,
    });
    expect(same.status).toBe('saved');
    await desk.close();
  });

  it('answers a wrong secret with a clear message', async () => {
    const desk = await editor();
    const settings = await desk.handlers['settings.setLibrarySecret']({ secret: 'wrong secret' });
    expect(settings).toMatchObject({ librarySecretSet: true, librarySecretAccepted: false });
    const error = await desk.handlers['dossier.open']({ handle }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).code).toBe('library_secret_refused');
    expect((error as DeskError).message).toMatch(/refused the library secret/);
    await desk.close();
  });

  it('keeps an unsaved draft across a restart, and rejects an invalid one with its location', async () => {
    const dir = tempDir('desk-draft-');
    dirs.push(dir);
    const desk = await editor({ dataDir: dir.dir });
    const opened = await desk.handlers['dossier.open']({ handle });
    await desk.handlers['dossier.saveDraft']({ handle, draft: withPost(opened.bundle, 'draft only') });
    const invalid = await desk.handlers['dossier.saveDraft']({
      handle,
      draft: { ...opened.bundle, posts: 'nope' },
    }).catch((e: unknown) => e);
    expect((invalid as DeskError).code).toBe('invalid_bundle');
    expect((invalid as DeskError).details['path']).toEqual(['posts']);
    await desk.close();

    const restarted = await deskFor(stack, dir.dir);
    const reopened = await restarted.handlers['dossier.open']({ handle });
    expect(reopened.draft?.posts.at(-1)).toMatchObject({ text: 'draft only' });
    expect(reopened.base.gatheredAt).toBe(opened.bundle.gatheredAt);
    expect((await restarted.handlers['dossier.discardDraft']({ handle })).discarded).toBe(true);
    await restarted.close();
  });
});
