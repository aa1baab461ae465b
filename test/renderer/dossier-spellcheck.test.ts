/** The dossier editor asks for spelling where staff write prose, and not in names, numbers or ids. */
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { PostsEditor, ProfileEditor } from '../../src/renderer/dossier/sections';
import type { Bundle } from '../../src/shared/wire';

const bundle = {
  profile: { bio: 'Writes about enegry markets', followers: 1200 },
  posts: [{ id: 'post_1', text: 'A post with a typo: recieve', createdAt: '2026-11-20T10:00:00.000Z' }],
} as unknown as Bundle;
const noop = () => undefined;

describe('spelling in the dossier editor', () => {
  it('is checked in post texts and text profile fields', () => {
    const posts = renderToStaticMarkup(
      createElement(PostsEditor, { bundle, onChange: noop, now: () => '2026-11-25T00:00:00.000Z' }),
    );
    expect(posts).toMatch(/<textarea[^>]*aria-label="Post 1 text"[^>]*spellCheck="true"/i);
    const profile = renderToStaticMarkup(createElement(ProfileEditor, { bundle, onChange: noop }));
    expect(profile).toMatch(/<input[^>]*spellCheck="true"[^>]*value="Writes about enegry markets"/i);
    expect(profile).toMatch(/<input[^>]*spellCheck="false"[^>]*value="1200"/i);
    expect(profile).toMatch(/aria-label="New profile field"[^>]*spellCheck="false"/i);
  });
});
