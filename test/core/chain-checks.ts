/**
 * A purchase checked where the money is, not by what a screen or the CLI printed: its ledger row in desk.db
 * against the demo token on the test chain (the nonce used, the settlement's transaction, the amount that
 * moved from the payer to the payee in it).
 */
import { expect } from 'vitest';
import { parseAbi, parseAbiItem, parseEventLogs, type Hex } from 'viem';
import type { Stack } from '../../src/service/stack';
import type { PurchaseRow } from '../../src/core/ledger/purchases';

const TOKEN_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);
const AUTHORIZATION_USED = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Whether the token has used the payer's authorization nonce. */
export async function authorizationUsed(stack: Stack, payer: string, nonce: string): Promise<boolean> {
  return stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: TOKEN_ABI,
    functionName: 'authorizationState',
    args: [payer as Hex, nonce as Hex],
  });
}

/**
 * A completed purchase as the chain saw it: its nonce used once, in the transaction its row names as the
 * receipt, which moved exactly the row's amount from its payer to its payee.
 */
export async function expectSettledAsRecorded(stack: Stack, row: PurchaseRow): Promise<void> {
  const client = stack.chain.clients.publicClient;
  expect(row.state, `purchase ${row.id}`).toBe('completed');
  expect(await authorizationUsed(stack, row.payer, row.nonce)).toBe(true);
  const used = await client.getLogs({
    address: stack.asset,
    event: AUTHORIZATION_USED,
    args: { authorizer: row.payer as Hex, nonce: row.nonce as Hex },
    fromBlock: 0n,
  });
  expect(used).toHaveLength(1);
  expect(row.tx_hash).toBe(used[0]!.transactionHash);
  const receipt = await client.getTransactionReceipt({ hash: used[0]!.transactionHash });
  const transfers = parseEventLogs({ abi: [TRANSFER], logs: receipt.logs }).filter(
    (log) => log.address.toLowerCase() === stack.asset.toLowerCase(),
  );
  expect(
    transfers.map((log) => [log.args.from.toLowerCase(), log.args.to.toLowerCase(), log.args.value]),
  ).toEqual([[row.payer.toLowerCase(), row.pay_to.toLowerCase(), BigInt(row.amount)]]);
}
