/**
 * The official x402 buyer, as its users set it up: `x402Client` with @x402/evm's exact scheme registered
 * (`registerExactEvmScheme`) and `wrapFetchWithPayment` from @x402/fetch, over a fetch that records what it sends.
 */
import { wrapFetchWithPayment, x402Client, type x402ClientConfig } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import type { ClientEvmSigner } from '@x402/evm';

export type SpendControls = NonNullable<x402ClientConfig['spendControls']>;

export interface OfficialBuyer {
  /** fetch that pays a 402 once with the official client. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  client: x402Client;
  /** The headers of every request the official client sent, in order. */
  sent: Headers[];
}

/**
 * An official buyer paying with `signer` (a viem LocalAccount, or `contractWalletSigner(...)`). Spend controls
 * are the client's defaults (known stablecoins such as Base Sepolia's USDC, at most $1 a payment) unless given;
 * a local demo token must be allowed explicitly (`{ allowedAssets: [{ network, asset }] }`) or with `false`.
 */
export function officialBuyer(signer: ClientEvmSigner, spendControls?: SpendControls): OfficialBuyer {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer });
  if (spendControls !== undefined) client.setSpendControls(spendControls);
  const sent: Headers[] = [];
  // A transparent spy: it records the headers and passes the request on untouched.
  const recordingFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    sent.push(new Headers(request.headers));
    return fetch(request);
  };
  return { fetch: wrapFetchWithPayment(recordingFetch, client), client, sent };
}
