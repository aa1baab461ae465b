/**
 * Checks a receipt against the chain itself: the settlement is the transaction in which the token emitted
 * AuthorizationUsed(payer, nonce), found by that event; its AuthorizationUsed and Transfer events must name
 * the payer, payee, amount and nonce the ledger recorded. Only then is the transaction the service named
 * compared with it: a service that named a wrong one is said so, and a genuine payment still verifies. Read-only.
 */
import { getAddress, parseAbi, parseEventLogs, type Hex, type PublicClient } from 'viem';
import type { ReceiptCheck, ReceiptVerification } from '../../shared/receipt';
import { authorizationUsed } from '../payments/chain-state';

const TOKEN_EVENTS = parseAbi([
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export interface PaidRecord {
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  amount: string;
  nonce: string;
  txHash: string | null;
  /** When the desk recorded the purchase (ISO): a chain that began later cannot hold its payment. */
  createdAt: string;
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const sameHash = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

function check(
  name: ReceiptCheck['name'],
  expected: string,
  found: string | null,
  ok: boolean,
): ReceiptCheck {
  return { name, expected, found, ok };
}

/** Whether this transaction's receipt holds the token's AuthorizationUsed(payer, nonce). */
async function emitsAuthorizationUsed(record: PaidRecord, client: PublicClient, hash: Hex): Promise<boolean> {
  try {
    const receipt = await client.getTransactionReceipt({ hash });
    const events = parseEventLogs({
      abi: TOKEN_EVENTS,
      logs: receipt.logs.filter((log) => sameAddress(log.address, record.asset)),
    });
    return events.some(
      (e) =>
        e.eventName === 'AuthorizationUsed' &&
        sameAddress(e.args.authorizer, record.payer) &&
        sameHash(e.args.nonce, record.nonce),
    );
  } catch {
    // Not a transaction this chain knows.
    return false;
  }
}

/**
 * The settlement: the transaction of the token's AuthorizationUsed(payer, nonce) event, searched in the
 * token's logs. Only when the node will not search them (some limit the blocks a log query may span) is the
 * transaction the service named used, and then only if it emitted that very event.
 */
async function findSettlement(record: PaidRecord, client: PublicClient): Promise<Hex | null> {
  try {
    const logs = await client.getLogs({
      address: record.asset as Hex,
      event: TOKEN_EVENTS[0],
      args: { authorizer: record.payer as Hex, nonce: record.nonce as Hex },
      fromBlock: 0n,
    });
    return logs[0]?.transactionHash ?? null;
  } catch (error) {
    const named = record.txHash;
    if (named && TX_HASH.test(named) && (await emitsAuthorizationUsed(record, client, named as Hex)))
      return named as Hex;
    throw error;
  }
}

const CANNOT =
  'so the receipt cannot be checked there: point the chain RPC at the chain the payment was made on and verify again.';

/**
 * Why the chain answering, which holds the token but never used the authorization, cannot be the one the
 * payment was made on, or null when it may be: it began after the purchase (a demo chain started anew), or it
 * does not know the transaction the service named. An unused authorization there says nothing about the
 * money, so it must not read "no money moved".
 */
async function notThisChain(record: PaidRecord, client: PublicClient): Promise<string | null> {
  const genesis = await client.getBlock({ blockNumber: 0n });
  const began = new Date(Number(genesis.timestamp) * 1000);
  if (began.getTime() > Date.parse(record.createdAt))
    return `The chain this RPC serves began at ${began.toISOString()}, after this purchase was made (${record.createdAt}), ${CANNOT}`;
  if (record.txHash !== null && TX_HASH.test(record.txHash)) {
    const known = await client
      .getTransaction({ hash: record.txHash as Hex })
      .then(() => true)
      .catch(() => false);
    if (!known)
      return `The chain this RPC serves does not know the transaction the service named (${record.txHash}), ${CANNOT}`;
  }
  return null;
}

/** What the chain says about one paid purchase; never throws for what the chain answers, only explains. */
export async function verifyOnChain(
  record: PaidRecord,
  client: PublicClient | null,
): Promise<ReceiptVerification> {
  if (!client) {
    return {
      status: 'unavailable',
      message: `No chain RPC is set for ${record.network}, so the payment cannot be checked on chain. Set one in Settings (or --rpc) and verify again.`,
      checks: [],
    };
  }
  try {
    const chainId = await client.getChainId();
    const chainCheck = check(
      'chain',
      record.network,
      `eip155:${chainId}`,
      record.network === `eip155:${chainId}`,
    );
    if (!chainCheck.ok) {
      return {
        status: 'unavailable',
        message: `The RPC serves chain ${chainId}, not ${record.network}: point it at the network the payment was made on.`,
        checks: [chainCheck],
      };
    }
    const code = await client.getCode({ address: record.asset as Hex });
    if (code === undefined || code === '0x') {
      return {
        status: 'unavailable',
        message: `The token ${getAddress(record.asset)} is not on the chain this RPC serves, ${CANNOT}`,
        checks: [chainCheck],
      };
    }
    const used = await authorizationUsed(record, client);
    if (!used) {
      const elsewhere = await notThisChain(record, client);
      if (elsewhere !== null) return { status: 'unavailable', message: elsewhere, checks: [chainCheck] };
      return {
        status: 'not_settled',
        message: 'The token has not used this authorization: no money moved for this purchase.',
        checks: [chainCheck, check('nonce', record.nonce, null, false)],
      };
    }
    const txHash = await findSettlement(record, client);
    if (!txHash) {
      return {
        status: 'mismatch',
        blockNumber: null,
        blockTime: null,
        transaction: null,
        serviceNamedOther: null,
        checks: [
          chainCheck,
          check('nonce', record.nonce, 'used, but no AuthorizationUsed event found', false),
        ],
      };
    }
    // Compared only now that the chain named the settlement: a wrong hash from the service is its mistake.
    const serviceNamedOther =
      record.txHash !== null && !sameHash(record.txHash, txHash) ? record.txHash : null;
    const receipt = await client.getTransactionReceipt({ hash: txHash });
    const tokenLogs = receipt.logs.filter((log) => sameAddress(log.address, record.asset));
    const events = parseEventLogs({ abi: TOKEN_EVENTS, logs: tokenLogs });
    const authorizationEvent = events.find(
      (e) =>
        e.eventName === 'AuthorizationUsed' &&
        sameAddress(e.args.authorizer, record.payer) &&
        sameHash(e.args.nonce, record.nonce),
    );
    const transfer = events.find((e) => e.eventName === 'Transfer' && sameAddress(e.args.from, record.payer));
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const nonceFound =
      authorizationEvent?.eventName === 'AuthorizationUsed' ? authorizationEvent.args.nonce : null;
    const to = transfer?.eventName === 'Transfer' ? transfer.args.to : null;
    const value = transfer?.eventName === 'Transfer' ? transfer.args.value.toString() : null;
    const checks = [
      chainCheck,
      check(
        'token',
        getAddress(record.asset),
        tokenLogs.length > 0 ? getAddress(record.asset) : null,
        tokenLogs.length > 0,
      ),
      check(
        'payer',
        getAddress(record.payer),
        transfer ? getAddress(record.payer) : null,
        transfer !== undefined,
      ),
      check(
        'payee',
        getAddress(record.payTo),
        to ? getAddress(to) : null,
        to !== null && sameAddress(to, record.payTo),
      ),
      check('amount', record.amount, value, value === record.amount),
      check(
        'nonce',
        record.nonce,
        nonceFound,
        nonceFound !== null && nonceFound.toLowerCase() === record.nonce.toLowerCase(),
      ),
    ];
    const blockNumber = receipt.blockNumber.toString();
    const blockTime = new Date(Number(block.timestamp) * 1000).toISOString();
    const found = { blockNumber, blockTime, checks, transaction: txHash, serviceNamedOther };
    if (receipt.status === 'success' && checks.every((c) => c.ok)) return { status: 'verified', ...found };
    return { status: 'mismatch', ...found };
  } catch (error) {
    return {
      status: 'unavailable',
      message: `The chain RPC did not answer: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      checks: [],
    };
  }
}

export function explorerUrl(network: string, txHash: string | null): string | null {
  if (!txHash) return null;
  if (network === 'eip155:8453') return `https://basescan.org/tx/${txHash}`;
  if (network === 'eip155:84532') return `https://sepolia.basescan.org/tx/${txHash}`;
  return null;
}
