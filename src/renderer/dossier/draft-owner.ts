/**
 * Core keeps one draft per dossier for every window of the desk, so that edits survive a restart. A window
 * must not take another window's unsaved edits as its own (it would save them, and its conflict screen would
 * then call them someone else's): each window remembers when it last kept a draft, in sessionStorage (per
 * tab, kept over a reload), and the windows that have the same dossier open tell each other over a
 * BroadcastChannel, so each can say so while it happens.
 */
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { handleKey } from '../../shared/handle-key';

const KEPT_PREFIX = 'intel-desk.dossier-draft.';

const keptKey = (handle: string) => `${KEPT_PREFIX}${handleKey(handle)}`;

/** Whether the draft core holds is the one this window kept last. */
export function isOwnDraft(handle: string, savedAt: string | null): boolean {
  if (savedAt === null) return false;
  try {
    return sessionStorage.getItem(keptKey(handle)) === savedAt;
  } catch {
    return false;
  }
}

export function noteOwnDraft(handle: string, savedAt: string | null): void {
  try {
    if (savedAt === null) sessionStorage.removeItem(keptKey(handle));
    else sessionStorage.setItem(keptKey(handle), savedAt);
  } catch {
    // Storage refused (a locked-down browser): the window then treats every kept draft as another's.
  }
}

const CHANNEL = 'intel-desk.dossiers';

/** What one window tells the others about a dossier; checked as outside input, since any tab can post. */
const peerMessageSchema = z.object({
  handle: z.string().max(200),
  from: z.string().max(100),
  what: z.enum(['open', 'here', 'draft', 'saved', 'closed']),
});
type PeerMessage = z.infer<typeof peerMessageSchema>;

/** What another window is doing with this dossier, if anything. */
export type Elsewhere = 'open' | 'editing' | 'saved' | null;

/** This window's part in the exchange: what others do with the dossier, and a way to tell them. */
export function useDossierPeers(handle: string): {
  elsewhere: Elsewhere;
  tell: (what: 'draft' | 'saved') => void;
} {
  const [elsewhere, setElsewhere] = useState<Elsewhere>(null);
  const channel = useRef<BroadcastChannel | null>(null);
  const me = useRef(crypto.randomUUID());
  const key = handleKey(handle);
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const open = new BroadcastChannel(CHANNEL);
    channel.current = open;
    const post = (what: PeerMessage['what']) => open.postMessage({ handle: key, from: me.current, what });
    open.onmessage = (event: MessageEvent<unknown>) => {
      const message = peerMessageSchema.safeParse(event.data);
      if (!message.success || message.data.handle !== key || message.data.from === me.current) return;
      const { what } = message.data;
      // A window that opens the dossier hears from those that have it open already.
      if (what === 'open') post('here');
      if (what === 'closed') setElsewhere(null);
      else if (what === 'draft') setElsewhere('editing');
      else if (what === 'saved') setElsewhere('saved');
      else setElsewhere((now) => now ?? 'open');
    };
    post('open');
    return () => {
      post('closed');
      open.close();
      channel.current = null;
    };
  }, [key]);
  return {
    elsewhere,
    tell: (what) => channel.current?.postMessage({ handle: key, from: me.current, what }),
  };
}
