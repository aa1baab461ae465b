/** Wallet status and management; keys never leave core, only the address and balance do. */
import type { RpcHandlers, WalletView } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import type { DeskContext } from '../desk/context';
import { readBalance, type PaymentToken } from '../wallet/balances';
import { usdcText } from '../../shared/money';
import { DEMO_CHAIN_NETWORK } from '../payments/allowlist';

/** The token asked about, if a quote named it; else the one the selected service last quoted in. */
function tokenFor(ctx: DeskContext, asked: { network: string; asset: string } | null): PaymentToken | null {
  if (asked === null) {
    // Before any quote this run (always so for the CLI), the demo's own token on the demo chain is the asset.
    const demoToken =
      ctx.demo && ctx.demoAsset ? { network: DEMO_CHAIN_NETWORK, asset: ctx.demoAsset } : null;
    return ctx.tokens.forService(ctx.client().baseUrl) ?? demoToken;
  }
  const token = { network: asked.network, asset: asked.asset as `0x${string}` };
  return ctx.tokens.isKnown(token) ? token : null;
}

async function walletStatus(
  ctx: DeskContext,
  asked: { network: string; asset: string } | null,
): Promise<WalletView> {
  const kind = ctx.wallet.kind();
  const address = ctx.wallet.address();
  const token = tokenFor(ctx, asked);
  const chain = token ? ctx.chain(token.network) : null;
  const balance = address && token && chain ? await readBalance(chain, token, address) : null;
  return {
    kind,
    address,
    unlocked: kind === 'external' || ctx.wallet.unlockedAccount() !== null,
    balanceUnits: balance === null ? null : balance.toString(),
    balanceUsdc: balance === null ? null : usdcText(balance),
    network: token?.network ?? null,
    chainRpc: ctx.chainRpc(token?.network ?? null),
  };
}

/**
 * In the demo, the keystore behind a wallet that went away is the demo's own, sealed with a passphrase the
 * person was never told: it pays again, unlocked as at start. A wallet the person imported under their own
 * passphrase does not open with it and stays locked, theirs to unlock.
 */
async function unlockDemoWallet(ctx: DeskContext): Promise<void> {
  const passphrase = ctx.options.demoWalletPassphrase;
  if (!ctx.demo || !passphrase || ctx.wallet.kind() !== 'keystore' || ctx.wallet.unlockedAccount()) return;
  await ctx.wallet.unlock(passphrase).catch(() => undefined);
}

export const walletHandlers = (
  ctx: DeskContext,
): Pick<
  RpcHandlers,
  | 'wallet.status'
  | 'wallet.import'
  | 'wallet.unlock'
  | 'wallet.useSessionKey'
  | 'wallet.lock'
  | 'wallet.useExternal'
  | 'wallet.forgetExternal'
> => ({
  'wallet.status': ({ token }) => walletStatus(ctx, token ?? null),
  'wallet.import': async ({ privateKey, keystoreJson, keystorePassword, passphrase, replace }) => {
    const options = { replace: replace === true };
    if (keystoreJson)
      await ctx.wallet.importKeystore(keystoreJson, keystorePassword ?? '', passphrase, options);
    else if (privateKey) await ctx.wallet.importPrivateKey(privateKey, passphrase, options);
    else throw new DeskError('nothing_to_import', 'Paste a private key or choose a keystore file.', 'usage');
    return walletStatus(ctx, null);
  },
  'wallet.unlock': async ({ passphrase }) => {
    await ctx.wallet.unlock(passphrase);
    return walletStatus(ctx, null);
  },
  'wallet.useSessionKey': async ({ privateKey }) => {
    ctx.wallet.useKeyForSession(privateKey);
    return walletStatus(ctx, null);
  },
  'wallet.lock': async () => {
    ctx.wallet.lock();
    return walletStatus(ctx, null);
  },
  'wallet.useExternal': async ({ address }) => {
    ctx.wallet.useExternal(address);
    return walletStatus(ctx, null);
  },
  'wallet.forgetExternal': async () => {
    ctx.wallet.forgetExternal();
    await unlockDemoWallet(ctx);
    return walletStatus(ctx, null);
  },
});
