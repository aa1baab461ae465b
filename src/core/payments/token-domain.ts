/**
 * The token's EIP-712 name and version, read from the token itself before the first payment to it: a signature
 * made for the wrong domain is refused by the token, and a service that names the wrong one is caught here.
 */
import { parseAbi, type PublicClient } from 'viem';
import { refused } from '../base/errors';
import type { Quote } from './quote';

const DOMAIN_ABI = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
]);

export class TokenDomains {
  private readonly confirmed = new Set<string>();

  /**
   * Refuses when the chain says the token's domain is not the one the payment would be signed for. A chain that
   * does not answer leaves the allowlist's known domain (allowlist.ts) to stand: it is USDC's own.
   */
  async assertMatches(quote: Quote, chain: PublicClient | null): Promise<void> {
    const key = `${quote.network} ${quote.asset.toLowerCase()}`;
    if (!chain || this.confirmed.has(key)) return;
    let name: string;
    let version: string;
    try {
      [name, version] = await Promise.all([
        chain.readContract({ address: quote.asset, abi: DOMAIN_ABI, functionName: 'name' }),
        chain.readContract({ address: quote.asset, abi: DOMAIN_ABI, functionName: 'version' }),
      ]);
    } catch {
      return;
    }
    if (name !== quote.domain.name || version !== quote.domain.version) {
      throw refused(
        'token_domain_mismatch',
        `The token at ${quote.asset} on ${quote.network} names itself "${name.slice(0, 40)}" version "${version.slice(0, 12)}", but a payment in ${quote.allowed.label} is signed for "${quote.domain.name}" version "${quote.domain.version}". Nothing was signed.`,
      );
    }
    this.confirmed.add(key);
  }
}
