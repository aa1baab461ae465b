/**
 * First-party dossier editing through the bundle route: drafts survive restarts, and a save never overwrites
 * a change someone else made since the dossier was opened.
 */
import type { Bundle } from '../../shared/wire';
import type { DossierView, RpcHandlers, RpcOutputs } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';
import { DeskError } from '../base/errors';
import { normalizeHandle } from '../client/service-client';
import { parseBundle } from '../dossier/bundle';
import { handleKey } from '../../shared/handle-key';

/** A handle as the person wrote it, without a leading @, for the message. */
const bare = (raw: string) => raw.trim().replace(/^@/, '');

/**
 * A dossier is written to the handle it names, so a file for one handle given as another would check for
 * conflicts against the wrong dossier and then overwrite the one it names.
 */
function forHandle(handle: string, bundle: Bundle, what: string): Bundle {
  if (handleKey(bundle.username) !== handleKey(handle)) {
    throw new DeskError(
      'bundle_handle_mismatch',
      `This is @${bare(bundle.username)}'s ${what}, not @${bare(handle)}'s; nothing was saved.`,
      'usage',
      { handle, username: bundle.username },
    );
  }
  return bundle;
}

async function dossierOpen(ctx: DeskContext, rawHandle: string): Promise<DossierView> {
  const handle = normalizeHandle(rawHandle);
  const access = ctx.librarySecret.requireAccess();
  const bundle = await ctx.librarySecret.carrying(access, () =>
    access.client.bundleGet(handle, access.secret),
  );
  const saved = ctx.dossierDrafts.get(ctx.serviceUrl(), handle);
  if (!saved) return { bundle, base: bundle, draft: null, draftSavedAt: null };
  return {
    bundle,
    base: parseBundle(JSON.parse(saved.baseJson), 'saved base'),
    draft: parseBundle(JSON.parse(saved.draftJson), 'saved draft'),
    draftSavedAt: saved.savedAt,
  };
}

async function dossierSaveDraft(
  ctx: DeskContext,
  rawHandle: string,
  draft: unknown,
): Promise<{ savedAt: string }> {
  const handle = normalizeHandle(rawHandle);
  const mine = forHandle(handle, parseBundle(draft, 'draft'), 'draft');
  let base = ctx.dossierDrafts.get(ctx.serviceUrl(), handle)?.baseJson;
  if (base === undefined) {
    const access = ctx.librarySecret.requireAccess();
    base = JSON.stringify(
      await ctx.librarySecret.carrying(access, () => access.client.bundleGet(handle, access.secret)),
    );
  }
  const savedAt = new Date(ctx.now()).toISOString();
  ctx.dossierDrafts.put(ctx.serviceUrl(), handle, {
    baseJson: base,
    draftJson: JSON.stringify(mine),
    savedAt,
  });
  return { savedAt };
}

function dossierDiscardDraft(ctx: DeskContext, rawHandle: string): { discarded: boolean } {
  const handle = normalizeHandle(rawHandle);
  return { discarded: ctx.dossierDrafts.discard(ctx.serviceUrl(), handle) };
}

/** gatheredAt moves forward on every save, past both the clock and what the service holds. */
export function nextGatheredAt(now: number, theirs: string): string {
  return new Date(Math.max(now, Date.parse(theirs) + 1)).toISOString();
}

async function dossierSave(
  ctx: DeskContext,
  rawHandle: string,
  bundle: unknown,
  baseGatheredAt: string,
): Promise<RpcOutputs['dossier.save']> {
  const handle = normalizeHandle(rawHandle);
  const access = ctx.librarySecret.requireAccess();
  const mine = forHandle(handle, parseBundle(bundle, 'dossier'), 'dossier');
  const theirs = await ctx.librarySecret.carrying(access, () =>
    access.client.bundleGet(handle, access.secret),
  );
  if (theirs.gatheredAt !== baseGatheredAt) {
    const saved = ctx.dossierDrafts.get(ctx.serviceUrl(), handle);
    const base = saved ? parseBundle(JSON.parse(saved.baseJson), 'saved base') : theirs;
    return { status: 'conflict', base, theirs, mine };
  }
  const outgoing = { ...mine, gatheredAt: nextGatheredAt(ctx.now(), theirs.gatheredAt) };
  const answer = await ctx.librarySecret.carrying(access, () =>
    access.client.bundlePut(outgoing, access.secret),
  );
  if (!answer.written || answer.bundle.gatheredAt !== outgoing.gatheredAt) {
    return {
      status: 'not_written',
      message: `The service did not write the dossier: it holds a copy gathered at ${answer.bundle.gatheredAt}, as new as or newer than this save. Reopen it and merge.`,
    };
  }
  dossierDiscardDraft(ctx, handle);
  return { status: 'saved', bundle: answer.bundle };
}

export const dossierHandlers = (
  ctx: DeskContext,
): Pick<RpcHandlers, 'dossier.open' | 'dossier.saveDraft' | 'dossier.discardDraft' | 'dossier.save'> => ({
  'dossier.open': ({ handle }) => dossierOpen(ctx, handle),
  'dossier.saveDraft': ({ handle, draft }) => dossierSaveDraft(ctx, handle, draft),
  'dossier.discardDraft': async ({ handle }) => dossierDiscardDraft(ctx, handle),
  'dossier.save': ({ handle, bundle, baseGatheredAt }) => dossierSave(ctx, handle, bundle, baseGatheredAt),
});
