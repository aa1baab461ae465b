/** What the chain says of a sent authorization, and when the desk alone may say it can no longer settle. */
import { parseAbi, type PublicClient } from 'viem';

const TOKEN_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

/** Whether the token has used the payer's authorization nonce: true once the payment settled on chain. */
export async function authorizationUsed(
  payment: { network: string; asset: string; payer: string; nonce: string },
  client: PublicClient,
  blockNumber?: bigint,
): Promise<boolean> {
  const chainId = await client.getChainId();
  if (`eip155:${chainId}` !== payment.network) {
    throw new Error(`the RPC serves chain ${chainId}, not ${payment.network}`);
  }
  return client.readContract({
    address: payment.asset as `0x${string}`,
    abi: TOKEN_ABI,
    functionName: 'authorizationState',
    args: [payment.payer as `0x${string}`, payment.nonce as `0x${string}`],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

/**
 * How long past validBefore the desk's own clock must be before it alone may call an unused authorization
 * dead: a desk may run up to a whole payment window ahead of the chain it signed for (chain-clock.ts absorbs
 * that much), and the chain decides (block.timestamp < validBefore), not the desk.
 */
export const DESK_CLOCK_EXPIRY_MARGIN_MS = 300_000;

/** When a refusal may be believed without a chain: the desk's clock well past the authorization's close. */
export function refusalBelievableAt(validBefore: bigint | number): number {
  return Number(validBefore) * 1000 + DESK_CLOCK_EXPIRY_MARGIN_MS;
}
