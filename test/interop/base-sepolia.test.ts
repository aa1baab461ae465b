/**
 * The Base Sepolia fixture is what it claims: USDC's domain at USDC's address on chain 84532, Multicall3 where the
 * facilitator reads it, and a contract wallet whose signatures viem and the token both accept.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashDomain,
  hashTypedData,
  parseAbi,
  size,
  toHex,
  type Address,
  type Hex,
  type TypedDataDefinition,
} from 'viem';
import {
  BASE_SEPOLIA_USDC,
  MULTICALL3_ADDRESS,
  contractWalletSignature,
  deployContractWallet,
  startBaseSepolia,
  type BaseSepolia,
} from './fixtures';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../src/core/payments/authorization';

const eip3009Abi = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
]);

let chain: BaseSepolia;
let wallet: Address;

beforeAll(async () => {
  chain = await startBaseSepolia();
  wallet = await deployContractWallet(chain, chain.accounts.walletOwner.account);
});
afterAll(async () => {
  await chain?.stop();
});

function transfer(from: Address, to: Address, value: bigint) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message = {
    from,
    to,
    value,
    validAfter: now - 60n,
    validBefore: now + 300n,
    nonce: toHex(randomBytes(32)),
  };
  const typedData = {
    domain: { name: 'USDC', version: '2', chainId: chain.chainId, verifyingContract: BASE_SEPOLIA_USDC },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  } as const satisfies TypedDataDefinition;
  return { message, typedData };
}

describe('Base Sepolia on anvil', () => {
  it("has USDC's code, name, version and domain at USDC's address on chain 84532", async () => {
    const read = (functionName: 'name' | 'version') =>
      chain.publicClient.readContract({ address: BASE_SEPOLIA_USDC, abi: chain.usdcAbi, functionName });
    expect(await chain.publicClient.getChainId()).toBe(84532);
    expect([await read('name'), await read('version')]).toEqual(['USDC', '2']);
    const separator = await chain.publicClient.readContract({
      address: BASE_SEPOLIA_USDC,
      abi: chain.usdcAbi,
      functionName: 'DOMAIN_SEPARATOR',
    });
    expect(separator).toBe(
      hashDomain({
        domain: { name: 'USDC', version: '2', chainId: 84532n, verifyingContract: BASE_SEPOLIA_USDC },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    );
    expect(await chain.publicClient.getCode({ address: MULTICALL3_ADDRESS })).toMatch(/^0x[0-9a-f]{100,}$/);
  });

  it('funds an address and reads its balance', async () => {
    const buyer = chain.accounts.buyers[4]!.address;
    const before = await chain.balanceOf(buyer);
    await chain.fund(buyer, 1_500_000n);
    expect(await chain.balanceOf(buyer)).toBe(before + 1_500_000n);
  });
});

describe('the contract wallet', () => {
  it('signs in a format of its own (not 65 bytes) that viem verifies through ERC-1271', async () => {
    const owner = chain.accounts.walletOwner.account;
    const { typedData } = transfer(wallet, chain.accounts.payee.address, 1n);
    const signature = await contractWalletSignature(owner, typedData);
    expect(size(signature)).toBe(192);
    expect(await chain.publicClient.verifyTypedData({ address: wallet, ...typedData, signature })).toBe(true);
    const magic = await chain.publicClient.readContract({
      address: wallet,
      abi: eip3009Abi,
      functionName: 'isValidSignature',
      args: [hashTypedData(typedData), signature],
    });
    expect(magic).toBe('0x1626ba7e');
    // Someone else's signature, wrapped the same way, is refused; so is the owner's bare ECDSA signature.
    const stranger = await contractWalletSignature(chain.accounts.buyers[0]!.account, typedData);
    expect(
      await chain.publicClient.verifyTypedData({ address: wallet, ...typedData, signature: stranger }),
    ).toBe(false);
    const bare = await owner.signTypedData(typedData);
    expect(await chain.publicClient.verifyTypedData({ address: wallet, ...typedData, signature: bare })).toBe(
      false,
    );
  });

  it("pays through the token's bytes form, which asks the wallet; the v,r,s form stays ECDSA-only", async () => {
    await chain.fund(wallet, 50_000n);
    const payee = chain.accounts.payee.address;
    const sender = chain.clientsFor(chain.accounts.buyers[3]!.key);
    const owner = chain.accounts.walletOwner.account;

    const first = transfer(wallet, payee, 20_000n);
    const ownerSignature = await owner.signTypedData(first.typedData);
    const { message } = first;
    const baseArgs = [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
    ] as const;
    const r = `0x${ownerSignature.slice(2, 66)}` as Hex;
    const s = `0x${ownerSignature.slice(66, 130)}` as Hex;
    const v = Number.parseInt(ownerSignature.slice(130, 132), 16);
    await expect(
      sender.publicClient.simulateContract({
        account: sender.walletClient.account,
        address: BASE_SEPOLIA_USDC,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args: [...baseArgs, v, r, s],
      }),
    ).rejects.toThrow(/invalid signature/);

    const payeeBefore = await chain.balanceOf(payee);
    const hash = await sender.walletClient.writeContract({
      address: BASE_SEPOLIA_USDC,
      abi: eip3009Abi,
      functionName: 'transferWithAuthorization',
      args: [...baseArgs, await contractWalletSignature(owner, first.typedData)],
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await chain.balanceOf(wallet)).toBe(30_000n);
    expect(await chain.balanceOf(payee)).toBe(payeeBefore + 20_000n);
    expect(await chain.authorizationState(wallet, message.nonce)).toBe(true);

    // A stranger's wrapped signature does not move the wallet's money.
    const second = transfer(wallet, payee, 10_000n);
    const m2 = second.message;
    await expect(
      sender.publicClient.simulateContract({
        account: sender.walletClient.account,
        address: BASE_SEPOLIA_USDC,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args: [
          m2.from,
          m2.to,
          m2.value,
          m2.validAfter,
          m2.validBefore,
          m2.nonce,
          await contractWalletSignature(chain.accounts.buyers[0]!.account, second.typedData),
        ],
      }),
    ).rejects.toThrow(/invalid signature/);
  });

  it('receives and cancels through the bytes forms too', async () => {
    await chain.fund(wallet, 10_000n);
    const owner = chain.accounts.walletOwner.account;
    const payee = chain.accounts.payee;
    const payeeClients = chain.clientsFor(payee.key);
    const walletBefore = await chain.balanceOf(wallet);

    // receiveWithAuthorization: the payee submits, the wallet's signature authorizes.
    const now = BigInt(Math.floor(Date.now() / 1000));
    const receive = {
      from: wallet,
      to: payee.address,
      value: 4_000n,
      validAfter: now - 60n,
      validBefore: now + 300n,
      nonce: toHex(randomBytes(32)),
    };
    const receiveSignature = await contractWalletSignature(owner, {
      domain: { name: 'USDC', version: '2', chainId: chain.chainId, verifyingContract: BASE_SEPOLIA_USDC },
      types: { ReceiveWithAuthorization: TRANSFER_WITH_AUTHORIZATION_TYPES.TransferWithAuthorization },
      primaryType: 'ReceiveWithAuthorization',
      message: receive,
    });
    const received = await payeeClients.walletClient.writeContract({
      address: BASE_SEPOLIA_USDC,
      abi: eip3009Abi,
      functionName: 'receiveWithAuthorization',
      args: [
        receive.from,
        receive.to,
        receive.value,
        receive.validAfter,
        receive.validBefore,
        receive.nonce,
        receiveSignature,
      ],
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash: received })).status).toBe('success');
    expect(await chain.balanceOf(wallet)).toBe(walletBefore - 4_000n);

    // cancelAuthorization: the wallet voids a nonce before anyone uses it.
    const nonce = toHex(randomBytes(32));
    const cancelSignature = await contractWalletSignature(owner, {
      domain: { name: 'USDC', version: '2', chainId: chain.chainId, verifyingContract: BASE_SEPOLIA_USDC },
      types: {
        CancelAuthorization: [
          { name: 'authorizer', type: 'address' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'CancelAuthorization',
      message: { authorizer: wallet, nonce },
    });
    expect(await chain.authorizationState(wallet, nonce)).toBe(false);
    const canceled = await payeeClients.walletClient.writeContract({
      address: BASE_SEPOLIA_USDC,
      abi: eip3009Abi,
      functionName: 'cancelAuthorization',
      args: [wallet, nonce, cancelSignature],
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash: canceled })).status).toBe('success');
    expect(await chain.authorizationState(wallet, nonce)).toBe(true);
  });
});
