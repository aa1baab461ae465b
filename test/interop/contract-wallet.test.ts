/**
 * A contract (ERC-1271) wallet pays with the official client: the interop peer through the official
 * facilitator on Base Sepolia (anvil), and the reference service on its demo chain. Both settle on chain through
 * the token's bytes-signature overload, where the token asks the wallet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { toFunctionSelector, type Address, type Hex, type PublicClient } from 'viem';
import { mintTestUsdc } from '../../src/service/chain/token';
import { startStack, type Stack } from '../../src/service/stack';
import { paidSuccessSchema, reportMenuSchema, shelfListSchema } from '../../src/shared/wire';
import {
  contractWalletSigner,
  deployContractWallet,
  officialBuyer,
  startBaseSepolia,
  startInteropPeer,
  type BaseSepolia,
  type InteropPeer,
} from './fixtures';

const BYTES_FORM = toFunctionSelector(
  'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
);
const json = { headers: { Accept: 'application/json' } };

/** The settlement named in the response's receipt: a successful call of the token's bytes form. */
async function expectBytesFormSettlement(client: PublicClient, response: Response, token: Address) {
  const settlement = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
  expect(settlement.success).toBe(true);
  const hash = settlement.transaction as Hex;
  expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
  const transaction = await client.getTransaction({ hash });
  expect(transaction.to?.toLowerCase()).toBe(token.toLowerCase());
  expect(transaction.input.slice(0, 10)).toBe(BYTES_FORM);
}

describe('a contract wallet paying the interop peer (official facilitator, Base Sepolia)', () => {
  let chain: BaseSepolia;
  let peer: InteropPeer;
  let wallet: Address;

  beforeAll(async () => {
    chain = await startBaseSepolia();
    peer = await startInteropPeer({ chain, form: 'stock' });
    wallet = await deployContractWallet(chain, chain.accounts.walletOwner.account);
    await chain.fund(wallet, 100_000n);
  });
  afterAll(async () => {
    await peer?.stop();
    await chain?.stop();
  });

  it('settles on chain from the wallet, the payee paid exactly the price', async () => {
    const buyer = officialBuyer(contractWalletSigner(wallet, chain.accounts.walletOwner.account));
    const payeeBefore = await chain.balanceOf(peer.payTo);
    const response = await buyer.fetch(`${peer.url}/api/intel/reports?username=bob_osint&select=all`, json);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(paidSuccessSchema.parse(await response.json()).reportCount).toBe(4);
    await expectBytesFormSettlement(chain.publicClient, response, chain.usdc);
    expect(decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '').payer).toBe(wallet);
    expect(await chain.balanceOf(wallet)).toBe(60_000n);
    expect(await chain.balanceOf(peer.payTo)).toBe(payeeBefore + 40_000n);
    expect(peer.paidRequests).toHaveLength(1);
  });

  it('is refused when someone other than the owner signed, and nothing moves', async () => {
    const buyer = officialBuyer(contractWalletSigner(wallet, chain.accounts.buyers[0]!.account));
    const response = await buyer.fetch(`${peer.url}/api/intel/reports?username=alice_intel&select=all`, json);
    expect(response.status).toBe(402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '');
    expect(challenge.error).toBe('invalid_exact_evm_signature');
    expect(await chain.balanceOf(wallet)).toBe(60_000n);
  });
});

describe('a contract wallet paying the reference service (its demo chain, bytes form)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ seed: { handles: 3, maxReportsPerHandle: 4 }, mining: 'auto' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('settles on chain from the wallet through the service', async () => {
    const ownerAccount = privateKeyToAccount(stack.buyerKeys[0]!);
    const wallet = await deployContractWallet(stack.chain, ownerAccount);
    await mintTestUsdc(stack.chain.clients, stack.chain.token, [wallet], '1');
    const balance = (address: Address) =>
      stack.chain.clients.publicClient.readContract({
        address: stack.asset,
        abi: stack.chain.token.contract.abi,
        functionName: 'balanceOf',
        args: [address],
      }) as Promise<bigint>;

    const shelf = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
    const handle = shelf.entries[0]!.username;
    const menu = reportMenuSchema.parse(
      await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json(),
    );
    const ids = menu.reports.slice(0, 2).map((r) => r.id);
    // The demo token is no stablecoin the official client knows: it is allowed by name.
    const buyer = officialBuyer(contractWalletSigner(wallet, ownerAccount), {
      allowedAssets: [{ network: stack.network, asset: stack.asset }],
    });
    const payeeBefore = await balance(stack.payTo);
    const response = await buyer.fetch(
      `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${ids.join(',')}`,
      json,
    );
    expect(response.status, await response.clone().text()).toBe(200);
    expect(paidSuccessSchema.parse(await response.json()).reports.map((r) => r.id)).toEqual(ids);
    await expectBytesFormSettlement(stack.chain.clients.publicClient, response, stack.asset);
    expect(await balance(wallet)).toBe(1_000_000n - 20_000n);
    expect(await balance(stack.payTo)).toBe(payeeBefore + 20_000n);
  });
});
