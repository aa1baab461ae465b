/**
 * First-party dossier editing through the bundle route: drafts survive restarts, and a save never overwrites
 * a change someone else made since the dossier was opened.
 */
import type { Bundle } from '../../shared/wire';
import type { DossierView, RpcOutputs } from '../../shared/rpc';
import { handleKey } from '../../shared/handle-key';
import { DeskError } from '../base/errors';
import { normalizeHandle } from '../client/service-client';
import type { LibrarySecret } from '../library/library-secret';
import { parseBundle } from './bundle';
import type { DossierDrafts } from './drafts';

export interface DossiersDeps {
  readonly librarySecret: Pick<LibrarySecret, 'requireAccess' | 'carrying'>;
  readonly drafts: DossierDrafts;
  /** The service the dossiers are read from and written to; drafts are kept under it. */
  serviceUrl(): string;
  readonly now: () => number;
}

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

/** gatheredAt moves forward on every save, past both the clock and what the service holds. */
export function nextGatheredAt(now: number, theirs: string): string {
  return new Date(Math.max(now, Date.parse(theirs) + 1)).toISOString();
}

export class Dossiers {
  constructor(private readonly deps: DossiersDeps) {}

  async open(rawHandle: string): Promise<DossierView> {
    const handle = normalizeHandle(rawHandle);
    const bundle = await this.theirs(handle);
    const saved = this.deps.drafts.get(this.deps.serviceUrl(), handle);
    if (!saved) return { bundle, base: bundle, draft: null, draftSavedAt: null };
    return {
      bundle,
      base: parseBundle(JSON.parse(saved.baseJson), 'saved base'),
      draft: parseBundle(JSON.parse(saved.draftJson), 'saved draft'),
      draftSavedAt: saved.savedAt,
    };
  }

  async saveDraft(rawHandle: string, draft: unknown): Promise<{ savedAt: string }> {
    const handle = normalizeHandle(rawHandle);
    const mine = forHandle(handle, parseBundle(draft, 'draft'), 'draft');
    const base =
      this.deps.drafts.get(this.deps.serviceUrl(), handle)?.baseJson ??
      JSON.stringify(await this.theirs(handle));
    const savedAt = new Date(this.deps.now()).toISOString();
    this.deps.drafts.put(this.deps.serviceUrl(), handle, {
      baseJson: base,
      draftJson: JSON.stringify(mine),
      savedAt,
    });
    return { savedAt };
  }

  discardDraft(rawHandle: string): { discarded: boolean } {
    const handle = normalizeHandle(rawHandle);
    return { discarded: this.deps.drafts.discard(this.deps.serviceUrl(), handle) };
  }

  /** Writes the dossier unless someone saved since baseGatheredAt: then the three versions come back to merge. */
  async save(
    rawHandle: string,
    bundle: unknown,
    baseGatheredAt: string,
  ): Promise<RpcOutputs['dossier.save']> {
    const handle = normalizeHandle(rawHandle);
    const { librarySecret } = this.deps;
    const access = librarySecret.requireAccess();
    const mine = forHandle(handle, parseBundle(bundle, 'dossier'), 'dossier');
    const theirs = await librarySecret.carrying(access, () => access.client.bundleGet(handle, access.secret));
    if (theirs.gatheredAt !== baseGatheredAt) {
      const saved = this.deps.drafts.get(this.deps.serviceUrl(), handle);
      const base = saved ? parseBundle(JSON.parse(saved.baseJson), 'saved base') : theirs;
      return { status: 'conflict', base, theirs, mine };
    }
    const outgoing = { ...mine, gatheredAt: nextGatheredAt(this.deps.now(), theirs.gatheredAt) };
    const answer = await librarySecret.carrying(access, () =>
      access.client.bundlePut(outgoing, access.secret),
    );
    if (!answer.written || answer.bundle.gatheredAt !== outgoing.gatheredAt) {
      return {
        status: 'not_written',
        message: `The service did not write the dossier: it holds a copy gathered at ${answer.bundle.gatheredAt}, as new as or newer than this save. Reopen it and merge.`,
      };
    }
    this.discardDraft(handle);
    return { status: 'saved', bundle: answer.bundle };
  }

  /** The dossier as the service holds it now, read with the library secret. */
  private theirs(handle: string): Promise<Bundle> {
    const { librarySecret } = this.deps;
    const access = librarySecret.requireAccess();
    return librarySecret.carrying(access, () => access.client.bundleGet(handle, access.secret));
  }
}
