/**
 * A contract (ERC-1271) wallet for the interop tests: deployed with one owner EOA, it accepts a signature when the
 * owner signed the hash. Its format, `abi.encode(uint8 ownerIndex = 0, bytes ownerSignature)`, is 192 bytes, never
 * 65, so a facilitator settles through the token's bytes-signature overload, where the token asks the wallet.
 */
import {
  encodeAbiParameters,
  getAddress,
  type Address,
  type Hex,
  type LocalAccount,
  type TypedDataDefinition,
} from 'viem';
import type { ClientEvmSigner } from '@x402/evm';
import { anvilDevKey } from '../../src/service/chain/accounts';
import { chainClients } from '../../src/service/chain/token';
import { deploy, loadTestSmartWallet } from './test-contracts';

/** What ERC-1271's isValidSignature returns for a valid signature. */
export const ERC1271_MAGIC_VALUE = '0x1626ba7e' as const;

/** Typed data as the x402 client signer receives it (viem's TypedDataDefinition with loose types). */
export interface TypedDataToSign {
  domain: Record<string, unknown>;
  types: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** Wraps the owner's 65-byte signature of a hash into the wallet's format: `abi.encode(uint8 0, bytes sig)`. */
export function wrapOwnerSignature(ownerSignature: Hex): Hex {
  return encodeAbiParameters([{ type: 'uint8' }, { type: 'bytes' }], [0, ownerSignature]);
}

/**
 * The signature the wallet accepts for EIP-712 `typedData`: the owner signs the typed data (that is, the raw
 * EIP-712 digest, no prefix), wrapped in the wallet's format. Pass it with `from` = the wallet's address.
 */
export async function contractWalletSignature(
  owner: LocalAccount,
  typedData: TypedDataToSign | TypedDataDefinition,
): Promise<Hex> {
  const ownerSignature = await owner.signTypedData(typedData as TypedDataDefinition);
  return wrapOwnerSignature(ownerSignature);
}

/**
 * Deploys a wallet owned by `owner` on the anvil chain at `chain.rpcUrl` and returns its address. It is sent from
 * anvil account `deployerKey` (default #0, which holds ether on every anvil the project starts).
 */
export async function deployContractWallet(
  chain: { rpcUrl: string; chainId: number },
  owner: Address | LocalAccount,
  deployerKey: Hex = anvilDevKey(0),
): Promise<Address> {
  const ownerAddress = typeof owner === 'string' ? getAddress(owner) : owner.address;
  const clients = chainClients(chain.chainId, chain.rpcUrl, deployerKey);
  return deploy(clients, loadTestSmartWallet(), [ownerAddress]);
}

/**
 * An x402 client signer paying from the wallet: its address is the wallet's, and it signs as the wallet does
 * (owner's signature, wrapped). Hand it to `registerExactEvmScheme(client, { signer })` or `new ExactEvmScheme(…)`.
 */
export function contractWalletSigner(wallet: Address, owner: LocalAccount): ClientEvmSigner {
  return {
    address: getAddress(wallet),
    signTypedData: (typedData) => contractWalletSignature(owner, typedData),
  };
}
