/**
 * Wallet balances per token: a service names the token it is paid in only in its 402 challenge, so the
 * tokens come from quotes, remembered per service. A balance is read for a known token only, never for
 * whatever address a caller names.
 */
import { parseAbi, type PublicClient } from 'viem';

const BALANCE_ABI = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

export interface PaymentToken {
  network: string;
  asset: `0x${string}`;
}

const tokenKey = (token: PaymentToken) => `${token.network} ${token.asset.toLowerCase()}`;

export class KnownTokens {
  private readonly byService = new Map<string, PaymentToken>();
  private readonly seen = new Set<string>();

  /** A validated quote from serviceUrl asked to be paid in this token. */
  learn(serviceUrl: string, token: PaymentToken): void {
    this.byService.set(serviceUrl, { network: token.network, asset: token.asset });
    this.seen.add(tokenKey(token));
  }

  /** The token the service last asked for, when it has quoted in this run. */
  forService(serviceUrl: string): PaymentToken | null {
    return this.byService.get(serviceUrl) ?? null;
  }

  isKnown(token: PaymentToken): boolean {
    return this.seen.has(tokenKey(token));
  }
}

/** The owner's balance of the token in base units, or null when the chain does not answer. */
export async function readBalance(
  chain: PublicClient,
  token: PaymentToken,
  owner: `0x${string}`,
): Promise<bigint | null> {
  try {
    return await chain.readContract({
      address: token.asset,
      abi: BALANCE_ABI,
      functionName: 'balanceOf',
      args: [owner],
    });
  } catch {
    return null;
  }
}
