import { describe, expect, it } from 'vitest';
import { diff, theirChanges, type Json } from '../../src/renderer/dossier/paths';
import { resolveConflict, threeWayMerge } from '../../src/renderer/dossier/merge';

const base = {
  v: 1,
  username: 'ada',
  profile: { displayName: 'Ada', bio: 'writer' },
  posts: [
    { id: 'p1', text: 'one' },
    { id: 'p2', text: 'two' },
  ],
  edges: [{ from: 'ada', to: 'bob' }],
  reportHistory: [{ id: 'r1', model: 'm' }],
  gatheredAt: '2026-01-01T00:00:00.000Z',
} satisfies Json;

describe('dossier diff', () => {
  it('names each changed leaf by a readable path', () => {
    const after = {
      ...base,
      profile: { ...base.profile, bio: 'editor' },
      posts: [base.posts[0]!, { id: 'p3', text: 'three' }],
    };
    expect(diff(base, after)).toEqual([
      { path: 'posts[id=p2].id', kind: 'removed', before: 'p2' },
      { path: 'posts[id=p2].text', kind: 'removed', before: 'two' },
      { path: 'posts[id=p3].id', kind: 'added', after: 'p3' },
      { path: 'posts[id=p3].text', kind: 'added', after: 'three' },
      { path: 'profile.bio', kind: 'changed', before: 'writer', after: 'editor' },
    ]);
  });
});

describe('three-way merge', () => {
  it("takes each side's own changes and keeps both", () => {
    const theirs = {
      ...base,
      profile: { ...base.profile, displayName: 'Ada L.' },
      posts: [...base.posts, { id: 'p9', text: 'theirs' }],
      gatheredAt: '2026-01-02T00:00:00.000Z',
    };
    const mine = {
      ...base,
      profile: { ...base.profile, bio: 'editor' },
      posts: [{ id: 'p1', text: 'one, edited' }, base.posts[1]!],
    };
    const { merged, conflicts } = threeWayMerge(base, theirs, mine);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual({
      ...base,
      profile: { displayName: 'Ada L.', bio: 'editor' },
      posts: [
        { id: 'p1', text: 'one, edited' },
        { id: 'p2', text: 'two' },
        { id: 'p9', text: 'theirs' },
      ],
      gatheredAt: '2026-01-02T00:00:00.000Z',
    });
  });

  it('reports the same post changed on both sides, and applies the chosen side', () => {
    const theirs = { ...base, posts: [{ id: 'p1', text: 'theirs' }, base.posts[1]!] };
    const mine = { ...base, posts: [{ id: 'p1', text: 'mine' }, base.posts[1]!] };
    const { merged, conflicts } = threeWayMerge(base, theirs, mine);
    expect(conflicts).toEqual([
      { entity: 'posts[id=p1]', base: base.posts[0], theirs: theirs.posts[0], mine: mine.posts[0] },
    ]);
    expect((merged as typeof base).posts[0]).toEqual({ id: 'p1', text: 'theirs' });
    const chosen = resolveConflict(merged, conflicts[0]!, 'mine') as typeof base;
    expect(chosen.posts).toEqual([
      { id: 'p1', text: 'mine' },
      { id: 'p2', text: 'two' },
    ]);
  });

  it('keeps a removal made on one side', () => {
    const mine = { ...base, posts: [base.posts[0]!], edges: [] };
    const { merged, conflicts } = threeWayMerge(base, base, mine);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(mine);
  });
});

describe('what they changed', () => {
  it('leaves out of theirs a change my copy holds too, and keeps what only they did', () => {
    // My edit of p1 was saved from another window; someone also changed the bio and removed p2.
    const mine = { ...base, posts: [{ id: 'p1', text: 'my edit' }, base.posts[1]!] };
    const theirs = {
      ...base,
      profile: { ...base.profile, bio: 'their bio' },
      posts: [{ id: 'p1', text: 'my edit' }],
    };
    const { only, shared } = theirChanges(base, theirs, mine);
    expect(shared).toEqual([{ path: 'posts[id=p1].text', kind: 'changed', before: 'one', after: 'my edit' }]);
    expect(only.map((c) => c.path)).toEqual(['posts[id=p2].id', 'posts[id=p2].text', 'profile.bio']);
  });

  it('counts a removal as mine too only when my copy lacks the same leaf', () => {
    const gone = { ...base, edges: [] };
    expect(theirChanges(base, gone, gone).only).toEqual([]);
    expect(theirChanges(base, gone, base).shared).toEqual([]);
  });
});
