/**
 * The wait for a connected wallet's signature, without React: it ends with the signature, or with the reason
 * there is none (refused, session ended, too late to pay). Kept apart from the signing loop so its deadline can
 * be tested on a fake clock.
 */
import type { Connector } from 'wagmi';
import type { ExternalSignRequest } from '../../../shared/rpc';
import { purchaseText as t } from '../../text/purchase';

/** Core refuses a signature within 10 s of the authorization's end; the window stops waiting a little before. */
export const STOP_BEFORE_EXPIRY_MS = 15_000;
/** EIP-1193's and CAIP-25's (WalletConnect's) codes for a person refusing in their wallet. */
const REFUSED_CODES = [4001, 5000];
/** WalletConnect's USER_DISCONNECTED: the session ended while the request waited. */
const SESSION_ENDED_CODES = [6000];
const SESSION_ENDED = t('walletSessionEnded');
/** The person stopped waiting (Cancel), or the wallet was disconnected here while the request waited. */
export const CANCELLED = t('walletCancelled');
export const DISCONNECTED = t('walletDisconnected');

/** EIP-1193's "not connected to the requested chain", raised by the connector with the whole story. */
const WRONG_CHAIN_CODE = 4901;

/** The innermost error, of `error` and those it wraps (viem wraps the wallet's), carrying one of `codes`. */
function withCode(error: unknown, codes: number[]): { message?: unknown } | null {
  let found: { message?: unknown } | null = null;
  for (let cause = error; typeof cause === 'object' && cause !== null;) {
    const { code, cause: next } = cause as { code?: unknown; cause?: unknown };
    if (typeof code === 'number' && codes.includes(code)) found = cause;
    cause = next;
  }
  return found;
}

const carriesCode = (error: unknown, codes: number[]) => withCode(error, codes) !== null;

function walletFailure(error: unknown): Error {
  if (carriesCode(error, REFUSED_CODES)) return new Error(t('walletRefused'));
  if (carriesCode(error, SESSION_ENDED_CODES)) return new Error(SESSION_ENDED);
  const wrongChain = withCode(error, [WRONG_CHAIN_CODE]);
  if (typeof wrongChain?.message === 'string') return new Error(wrongChain.message);
  const detail = error instanceof Error ? (error.message.split('\n')[0] ?? '') : '';
  return new Error(t('walletCouldNot', { detail: detail ? t('walletDetail', { detail }) : '' }));
}

/**
 * The wallet's signature, or an error saying why there is none: refused, session ended, too late, or `stop`
 * aborted (its reason, a sentence, is the error's message): a wallet that never answers is not waited on
 * for the whole life of the authorization when the person says so.
 */
export function walletAnswer(
  signing: Promise<`0x${string}`>,
  request: ExternalSignRequest,
  connector: Connector | undefined,
  stop?: AbortSignal,
): Promise<`0x${string}`> {
  const validBeforeMs = Number(request.typedData.message['validBefore']) * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unwatch = () => undefined as void;
  const ended = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(t('walletExpired', { time: new Date(validBeforeMs).toLocaleTimeString() }))),
      Math.max(0, validBeforeMs - STOP_BEFORE_EXPIRY_MS - Date.now()),
    );
    const onStop = () => reject(new Error(typeof stop?.reason === 'string' ? stop.reason : CANCELLED));
    if (stop?.aborted) onStop();
    stop?.addEventListener('abort', onStop, { once: true });
    const unstop = () => stop?.removeEventListener('abort', onStop);
    unwatch = unstop;
    if (!connector) return;
    const onDisconnect = () => reject(new Error(SESSION_ENDED));
    connector.emitter.on('disconnect', onDisconnect);
    unwatch = () => {
      unstop();
      connector.emitter.off('disconnect', onDisconnect);
    };
  });
  return Promise.race([
    signing.catch((error: unknown) => Promise.reject(walletFailure(error))),
    ended,
  ]).finally(() => {
    clearTimeout(timer);
    unwatch();
  });
}
