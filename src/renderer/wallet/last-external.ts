/**
 * The wallet in the window that core was last told pays (a browser or WalletConnect wallet), remembered in
 * this browser: core forgets it when it restarts, and the keystore then pays again. Remembering it lets the
 * window say so instead of switching payer silently. Only its address and kind are kept, never anything
 * secret; a Disconnect chosen here forgets it.
 */
import { z } from 'zod';

const KEY = 'intel-desk.last-external-wallet';

const lastExternalSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  kind: z.enum(['browser', 'walletconnect']),
});
export type LastExternal = z.infer<typeof lastExternalSchema>;

/** What kind of wallet in the window a wagmi connector is. */
export function kindOf(connector: { type: string }): LastExternal['kind'] {
  return connector.type === 'walletConnect' ? 'walletconnect' : 'browser';
}

export function recallExternal(): LastExternal | null {
  try {
    const parsed = lastExternalSchema.safeParse(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function rememberExternal(wallet: LastExternal): void {
  localStorage.setItem(KEY, JSON.stringify(wallet));
  window.dispatchEvent(new Event(KEY));
}

export function forgetRememberedExternal(): void {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new Event(KEY));
}

/** Calls `listener` whenever the remembered wallet changes in this window. */
export function onRememberedChange(listener: () => void): () => void {
  window.addEventListener(KEY, listener);
  return () => window.removeEventListener(KEY, listener);
}
