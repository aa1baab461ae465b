/** Full dossiers for staff, through the bundle route with the library secret. */
import { z } from 'zod';
import { method } from './method';
import type { Bundle } from '../wire';
import { handleInput } from './common';

export interface DossierView {
  bundle: Bundle;
  /** The service's copy when the draft was opened: the base of a three-way merge. */
  base: Bundle;
  /**
   * Unsaved edits kept in core: one draft per dossier, shared by every window of the desk (and kept over a
   * restart), so the window says whose it is before using it (src/renderer/dossier/draft-owner.ts).
   */
  draft: Bundle | null;
  /** When the draft was kept: a window knows its own draft by this. */
  draftSavedAt: string | null;
}

/** Saved; or the service's copy changed since the draft's base (a three-way merge is offered); or not written. */
export type DossierSaveResult =
  | { status: 'saved'; bundle: Bundle }
  | { status: 'conflict'; base: Bundle; theirs: Bundle; mine: Bundle }
  | { status: 'not_written'; message: string };

export const dossierMethods = {
  'dossier.open': method<DossierView>()({
    input: z.object({ handle: handleInput }),
    reads: ['dossier'],
    changes: [],
  }),
  // The editor keeps the saved copy as its new base itself: reopening would throw away what is on screen.
  'dossier.saveDraft': method<{ savedAt: string }>()({
    input: z.object({ handle: handleInput, draft: z.unknown() }),
    reads: [],
    changes: [],
  }),
  'dossier.discardDraft': method<{ discarded: boolean }>()({
    input: z.object({ handle: handleInput }),
    reads: [],
    changes: [],
  }),
  'dossier.save': method<DossierSaveResult>()({
    input: z.object({ handle: handleInput, bundle: z.unknown(), baseGatheredAt: z.string() }),
    reads: [],
    changes: [],
  }),
};
