/**
 * Where the desk may talk in the clear (decision 0040): one rule for the library secret, the service a payment
 * is signed for, and the chain RPC that decides whether a refused payment moved money. Over plain http anyone on
 * the path can rewrite a 402's payee or say a settled payment never happened; on this computer nobody is on the
 * path, so the demo's http on loopback stays allowed.
 */

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/i;

/** https, or plain http to this computer (127.0.0.0/8, localhost, [::1]); anything else, or not a URL, is not. */
export function encryptedOrLocal(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK_HOST.test(parsed.hostname));
}

/** What travels to the address, for the sentence that refuses it. */
export type TransportUse = 'service' | 'chain RPC';

const AT_RISK: Record<TransportUse, string> = {
  service: 'anyone on the path could change the price and the payee of a payment',
  'chain RPC': 'anyone on the path could say a payment moved no money, and it would be paid again',
};

/**
 * The refusal of a plain-http address, naming it and the remedy (`where`: how to give another address, e.g.
 * "in Settings" or "with --service").
 */
export function insecureTransportSentence(use: TransportUse, url: string, where: string): string {
  const shown = url.length > 200 ? `${url.slice(0, 200)}…` : url;
  return `Intel Desk talks to the ${use} only over https (plain http only on this computer), and ${shown} is plain http to another host: ${AT_RISK[use]}. Give its https address ${where}; nothing was sent to it.`;
}
