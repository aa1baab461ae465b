/** Wallet status and management; keys never leave core, only the address and balance do. */
import type { RpcHandlers, WalletView } from '../../shared/rpc';
import { DeskError } from '../base/errors';
import type { DeskWallet } from '../wallet/wallet';
import type { DeskChains } from '../desk/chains';
import type { DeskCoreOptions } from '../desk/desk-options';
import { readBalance, type KnownTokens, type PaymentToken } from '../wallet/balances';
import { usdcText } from '../../shared/money';
import { DEMO_CHAIN_NETWORK } from '../payments/allowlist';

export interface WalletHandlersDeps {
  readonly wallet: DeskWallet;
  readonly tokens: Pick<KnownTokens, 'forService' | 'isKnown'>;
  readonly chains: Pick<DeskChains, 'chain' | 'chainRpc'>;
  /** The selected service as its client names it: the token it last quoted in is the one shown. */
  baseUrl(): string;
  readonly demo: boolean;
  readonly options: Pick<DeskCoreOptions, 'demoAsset' | 'demoWalletPassphrase'>;
}

/** The token asked about, if a quote named it; else the one the selected service last quoted in. */
function tokenFor(
  ctx: WalletHandlersDeps,
  asked: { network: string; asset: string } | null,
): PaymentToken | null {
  if (asked === null) {
    // Before any quote this run (always so for the CLI), the demo's own token on the demo chain is the asset.
    const demoToken =
      ctx.demo && ctx.options.demoAsset
        ? { network: DEMO_CHAIN_NETWORK, asset: ctx.options.demoAsset }
        : null;
    return ctx.tokens.forService(ctx.baseUrl()) ?? demoToken;
  }
  const token = { network: asked.network, asset: asked.asset as `0x${string}` };
  return ctx.tokens.isKnown(token) ? token : null;
}

async function walletStatus(
  ctx: WalletHandlersDeps,
  asked: { network: string; asset: string } | null,
): Promise<WalletView> {
  const kind = ctx.wallet.kind();
  const address = ctx.wallet.address();
  const token = tokenFor(ctx, asked);
  const chain = token ? ctx.chains.chain(token.network) : null;
  const balance = address && token && chain ? await readBalance(chain, token, address) : null;
  return {
    kind,
    address,
    unlocked: kind === 'external' || ctx.wallet.unlockedAccount() !== null,
    balanceUnits: balance === null ? null : balance.toString(),
    balanceUsdc: balance === null ? null : usdcText(balance),
    network: token?.network ?? null,
    chainRpc: ctx.chains.chainRpc(token?.network ?? null),
  };
}

/**
 * In the demo, the keystore behind a wallet that went away is the demo's own, sealed with a passphrase the
 * person was never told: it pays again, unlocked as at start. A wallet the person imported under their own
 * passphrase does not open with it and stays locked, theirs to unlock.
 */
async function unlockDemoWallet(ctx: WalletHandlersDeps): Promise<void> {
  const passphrase = ctx.options.demoWalletPassphrase;
  if (!ctx.demo || !passphrase || ctx.wallet.kind() !== 'keystore' || ctx.wallet.unlockedAccount()) return;
  await ctx.wallet.unlock(passphrase).catch(() => undefined);
}

export const walletHandlers = (
  ctx: WalletHandlersDeps,
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
