/** What the chain says of a sent authorization, and when the desk alone may say it can no longer settle. */
import { parseAbi, parseAbiItem, type PublicClient } from 'viem';

const TOKEN_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

const AUTHORIZATION_USED = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);

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

/** Whether a sent payment settled, read at the latest block, with its transaction when the chain's logs name it. */
export async function settledOnChain(
  payment: { network: string; asset: string; payer: string; nonce: string },
  client: PublicClient,
): Promise<{ used: boolean; txHash: string | null; chainSeconds: number }> {
  // The state is read at the very block whose time is compared with validBefore: once a block at or past
  // validBefore shows it unused, no later block can settle it.
  const block = await client.getBlock({ blockTag: 'latest' });
  const chainSeconds = Number(block.timestamp);
  const used = await authorizationUsed(payment, client, block.number);
  if (!used) return { used: false, txHash: null, chainSeconds };
  const logs = await client
    .getLogs({
      address: payment.asset as `0x${string}`,
      event: AUTHORIZATION_USED,
      args: { authorizer: payment.payer as `0x${string}`, nonce: payment.nonce as `0x${string}` },
      fromBlock: 0n,
    })
    .catch(() => []);
  return { used: true, txHash: logs[0]?.transactionHash ?? null, chainSeconds };
}
