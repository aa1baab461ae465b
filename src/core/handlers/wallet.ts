/** Wallet status and management; keys never leave core, only the address and balance do. */
import type { WalletView } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { readBalanceUsdc, type PaymentToken } from '../wallet/balances';

/** The token asked about, if a quote named it; else the one the selected service last quoted in. */
function tokenFor(ctx: DeskContext, asked: { network: string; asset: string } | null): PaymentToken | null {
  if (asked === null) return ctx.tokens.forService(ctx.client().baseUrl);
  const token = { network: asked.network, asset: asked.asset as `0x${string}` };
  return ctx.tokens.isKnown(token) ? token : null;
}

export async function walletStatus(
  ctx: DeskContext,
  asked: { network: string; asset: string } | null,
): Promise<WalletView> {
  const kind = ctx.wallet.kind();
  const address = ctx.wallet.address();
  const token = tokenFor(ctx, asked);
  const chain = token ? ctx.chain(token.network) : null;
  const balanceUsdc = address && token && chain ? await readBalanceUsdc(chain, token, address) : null;
  return {
    kind,
    address,
    unlocked: kind === 'external' || ctx.wallet.unlockedAccount() !== null,
    balanceUsdc,
    network: token?.network ?? null,
  };
}
