/** Wallet status and management; keys never leave core, only the address and balance do. */
import { parseAbi } from 'viem';
import type { WalletView } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { DEMO_CHAIN_NETWORK } from '../payments/allowlist';

const BALANCE_ABI = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

export async function walletStatus(ctx: DeskContext): Promise<WalletView> {
  const kind = ctx.wallet.kind();
  const address = ctx.wallet.address();
  let balanceUsdc: string | null = null;
  // Before any quote this run (always so for the CLI), the demo's own token on the demo chain is the asset.
  const asset =
    ctx.lastAsset ??
    (ctx.demo && ctx.demoAsset ? { network: DEMO_CHAIN_NETWORK, asset: ctx.demoAsset } : null);
  if (address && asset) {
    const chain = ctx.chain(asset.network);
    if (chain) {
      try {
        const balance = await chain.readContract({
          address: asset.asset,
          abi: BALANCE_ABI,
          functionName: 'balanceOf',
          args: [address],
        });
        balanceUsdc = (Number(balance) / 1e6).toFixed(2);
      } catch {
        balanceUsdc = null;
      }
    }
  }
  return {
    kind,
    address,
    unlocked: kind === 'external' || ctx.wallet.unlockedAccount() !== null,
    balanceUsdc,
    network: asset?.network ?? null,
  };
}
