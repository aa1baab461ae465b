/**
 * First-party dossier editing through the bundle route: drafts survive restarts, and a save never overwrites
 * a change someone else made since the dossier was opened.
 */
import type { Bundle } from '../../shared/wire';
import type { DossierView, RpcHandlers, RpcOutputs } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { normalizeHandle, type ServiceClient } from '../client/service-client';
import { serviceOrigin } from '../library-secret';
import { withLibrarySecret } from './settings';
import { parseBundle } from '../dossier-bundle';

/** The secret and the client of the one origin it is bound to; every request of a handler goes through both. */
function requireAccess(ctx: DeskContext): { secret: string; client: ServiceClient } {
  const access = ctx.libraryAccess();
  if (access) return access;
  const { origin, state } = ctx.librarySecrets.status();
  const here = serviceOrigin(ctx.serviceUrl());
  if (origin === here && state === 'refused')
    throw new DeskError(
      'library_secret_refused',
      'The service refused the library secret; enter it again in Settings if it changed.',
      'usage',
    );
  if (origin !== null && origin !== here)
    throw new DeskError(
      'library_secret_other_service',
      `The library secret was entered for ${origin}, not ${here}; enter the secret for this service in Settings.`,
      'usage',
      { origin },
    );
  throw new DeskError(
    'library_secret_required',
    'Dossiers need the library secret: set it in Settings.',
    'usage',
  );
}

/** The service's own comparison: case-insensitive, without a leading @. */
const bare = (raw: string) => raw.trim().replace(/^@/, '');
const handleKey = (raw: string) => bare(raw).toLowerCase();

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

interface DraftRow {
  base_json: string;
  draft_json: string;
  saved_at: string;
}

function draftRow(ctx: DeskContext, handle: string): DraftRow | undefined {
  return ctx.db
    .prepare<[string, string], DraftRow>(
      'SELECT base_json, draft_json, saved_at FROM dossier_drafts WHERE service_url = ? AND handle = ?',
    )
    .get(ctx.serviceUrl(), handle.toLowerCase());
}

async function dossierOpen(ctx: DeskContext, rawHandle: string): Promise<DossierView> {
  const handle = normalizeHandle(rawHandle);
  const access = requireAccess(ctx);
  const bundle = await withLibrarySecret(ctx, access, () => access.client.bundleGet(handle, access.secret));
  const row = draftRow(ctx, handle);
  if (!row) return { bundle, base: bundle, draft: null, draftSavedAt: null };
  return {
    bundle,
    base: parseBundle(JSON.parse(row.base_json), 'saved base'),
    draft: parseBundle(JSON.parse(row.draft_json), 'saved draft'),
    draftSavedAt: row.saved_at,
  };
}

async function dossierSaveDraft(
  ctx: DeskContext,
  rawHandle: string,
  draft: unknown,
): Promise<{ savedAt: string }> {
  const handle = normalizeHandle(rawHandle);
  const mine = forHandle(handle, parseBundle(draft, 'draft'), 'draft');
  const row = draftRow(ctx, handle);
  let base = row?.base_json;
  if (base === undefined) {
    const access = requireAccess(ctx);
    base = JSON.stringify(
      await withLibrarySecret(ctx, access, () => access.client.bundleGet(handle, access.secret)),
    );
  }
  const savedAt = new Date(ctx.now()).toISOString();
  ctx.db
    .prepare(
      'INSERT OR REPLACE INTO dossier_drafts (service_url, handle, base_json, draft_json, saved_at) VALUES (?, ?, ?, ?, ?)',
    )
    .run(ctx.serviceUrl(), handle.toLowerCase(), base, JSON.stringify(mine), savedAt);
  return { savedAt };
}

function dossierDiscardDraft(ctx: DeskContext, rawHandle: string): { discarded: boolean } {
  const handle = normalizeHandle(rawHandle);
  const result = ctx.db
    .prepare('DELETE FROM dossier_drafts WHERE service_url = ? AND handle = ?')
    .run(ctx.serviceUrl(), handle.toLowerCase());
  return { discarded: result.changes > 0 };
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
  const access = requireAccess(ctx);
  const mine = forHandle(handle, parseBundle(bundle, 'dossier'), 'dossier');
  const theirs = await withLibrarySecret(ctx, access, () => access.client.bundleGet(handle, access.secret));
  if (theirs.gatheredAt !== baseGatheredAt) {
    const row = draftRow(ctx, handle);
    const base = row ? parseBundle(JSON.parse(row.base_json), 'saved base') : theirs;
    return { status: 'conflict', base, theirs, mine };
  }
  const outgoing = { ...mine, gatheredAt: nextGatheredAt(ctx.now(), theirs.gatheredAt) };
  const answer = await withLibrarySecret(ctx, access, () => access.client.bundlePut(outgoing, access.secret));
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
