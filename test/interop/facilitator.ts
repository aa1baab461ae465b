/**
 * The official x402 facilitator, run in-process: `x402Facilitator` from @x402/core with @x402/evm's exact scheme,
 * settling from an anvil account on the Base Sepolia chain, behind the `FacilitatorClient` interface a resource
 * server talks to (what HTTPFacilitatorClient would do over HTTP, without the HTTP).
 */
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { Network, PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { Address } from 'viem';
import { SerialQueue, facilitatorSigner } from '../../src/service/payment/verify';
import type { ChainClients } from '../../src/service/chain/token';
import type { AnvilTestAccount, BaseSepolia } from './base-sepolia';

export interface InProcessFacilitator {
  /** The official facilitator itself (register hooks on it if a test needs to watch verify/settle). */
  facilitator: x402Facilitator;
  /** What a resource server is given: verify, settle and supported, answered in-process. */
  client: FacilitatorClient;
  /** The account settlements are sent from. */
  address: Address;
}

/**
 * One settlement account's clients and send queue per chain, shared by every facilitator that settles from it:
 * transactions from one account are sent one at a time, so two peers on one chain never reuse an account nonce.
 * Keyed by the chain object, not its URL: a later anvil on a reused port is a fresh chain with fresh nonces.
 */
const settlers = new WeakMap<BaseSepolia, Map<Address, { clients: ChainClients; sends: SerialQueue }>>();

function settler(chain: BaseSepolia, account: AnvilTestAccount) {
  let byAccount = settlers.get(chain);
  if (!byAccount) {
    byAccount = new Map();
    settlers.set(chain, byAccount);
  }
  let found = byAccount.get(account.address);
  if (!found) {
    found = { clients: chain.clientsFor(account.key), sends: new SerialQueue() };
    byAccount.set(account.address, found);
  }
  return found;
}

/** Starts the official facilitator for eip155:84532 on `chain`, settling from `account` (default: #8). */
export function inProcessFacilitator(
  chain: BaseSepolia,
  account: AnvilTestAccount = chain.accounts.facilitators[0],
): InProcessFacilitator {
  const { clients, sends } = settler(chain, account);
  const signer = facilitatorSigner(clients, sends, 30_000);
  const facilitator = new x402Facilitator().register(chain.network, new ExactEvmScheme(signer));
  const client: FacilitatorClient = {
    verify: (payload: PaymentPayload, requirements: PaymentRequirements) =>
      facilitator.verify(payload, requirements),
    settle: (payload: PaymentPayload, requirements: PaymentRequirements) =>
      facilitator.settle(payload, requirements),
    getSupported: async () => {
      const supported = facilitator.getSupported();
      return {
        ...supported,
        kinds: supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network })),
      };
    },
  };
  return { facilitator, client, address: clients.walletClient.account.address };
}
