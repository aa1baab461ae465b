/** The chains a desk asks about payments: which RPC for which network, its clients, and its clock. */
import type { PublicClient } from 'viem';
import { encryptedOrLocal } from '../../shared/transport';
import type { SettingsStore } from '../settings/settings';
import type { ClockSample } from '../client/clock-sample';
import { readChainClock } from '../payments/chain-clock';
import { ChainClients, chainRpcFor, type ChainRpc } from '../payments/chain-rpc';

type ChainFetch = ConstructorParameters<typeof ChainClients>[1];

export class DeskChains {
  private readonly clients: ChainClients;

  constructor(
    private readonly settings: SettingsStore,
    /** This run's chain RPC (the CLI's --rpc, INTEL_DESK_RPC_URL, the demo's chain). */
    private readonly runRpcUrl: string | null,
    timeoutMs: number,
    private readonly now: () => number,
    /** Every chain request goes out through the desk's network (proxy, certificate authorities). */
    fetchFn: ChainFetch,
  ) {
    this.clients = new ChainClients(timeoutMs, fetchFn);
  }

  /**
   * The chain RPC the desk asks about this network, and where it was chosen (chain-rpc.ts); for `null` (no
   * network known yet, as in the CLI's wallet status) only one chosen for this run or in Settings.
   */
  chainRpc(network: string | null): ChainRpc | null {
    return chainRpcFor(network, { run: this.runRpcUrl, settings: this.settings.get().chainRpcUrl });
  }

  /** The RPC URL the desk would ask about this network. */
  rpcUrlFor(network: string): string | null {
    return this.chainRpc(network)?.url ?? null;
  }

  /**
   * A read-only chain client for the network; null for a network that is not an EVM chain, and for an RPC in
   * plain http off this computer (saved before decision 0040), whose word on a payment is not taken.
   */
  chain(network: string): PublicClient | null {
    const rpc = this.chainRpc(network);
    return rpc && encryptedOrLocal(rpc.url) ? this.clients.client(network, rpc.url) : null;
  }

  /** The service's and the chain's clocks against the desk's, for dating a payment on network (rule 7). */
  async clockSamples(network: string, service: ClockSample | null): Promise<ClockSample[]> {
    const chain = this.chain(network);
    const onChain = chain
      ? await readChainClock(chain, Number(network.replace(/^eip155:/, '')), this.now)
      : null;
    return [service, onChain].filter((sample) => sample !== null);
  }
}
