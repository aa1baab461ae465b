/**
 * What the Electron preload puts on `window.intelDesk`, and the web host's token header: declared once here
 * for the preload, the hosts and the window.
 */
export interface IntelDeskBridge {
  /** One RPC call; the answer is the dispatch envelope `{ ok, value | error }`, checked by the window. */
  call(method: string, input: unknown): Promise<unknown>;
  /** Core's events (src/shared/events.ts), unchecked here; returns the function that stops listening. */
  onEvent(listener: (event: unknown) => void): () => void;
}

/** The header that carries the web host's per-run token, on RPC calls and the event stream. */
export const TOKEN_HEADER = 'X-Intel-Desk-Token';
