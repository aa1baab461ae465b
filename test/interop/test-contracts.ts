/**
 * The interop tests' own contracts (test/interop/contracts/*.sol), compiled with the solc npm package and cached
 * like the demo token (src/service/chain/compile.ts), and a one-call deploy.
 */
import path from 'node:path';
import { getAddress, type Abi, type Address, type Hex } from 'viem';
import { loadContract, type CompiledContract } from '../../src/service/chain/compile';
import type { ChainClients } from '../../src/service/chain/token';

const contractsDir = path.join(import.meta.dirname, 'contracts');

/** The ERC-1271 test wallet (one owner; signatures are `abi.encode(uint8 0, bytes ownerSig)`). */
export function loadTestSmartWallet(): CompiledContract {
  return loadContract(path.join(contractsDir, 'TestSmartWallet.sol'), 'TestSmartWallet');
}

/** Multicall3's `tryAggregate`, which the official facilitator reads through to diagnose a refused payment. */
export function loadTestMulticall(): CompiledContract {
  return loadContract(path.join(contractsDir, 'TestMulticall.sol'), 'TestMulticall');
}

/** Deploys `contract` from the clients' account and returns its address once mined. */
export async function deploy(
  clients: ChainClients,
  contract: CompiledContract,
  args: readonly unknown[] = [],
): Promise<Address> {
  const hash: Hex = await clients.walletClient.deployContract({
    abi: contract.abi as Abi,
    bytecode: contract.bytecode,
    args,
  });
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deploying a contract failed in ${hash}`);
  }
  return getAddress(receipt.contractAddress);
}
