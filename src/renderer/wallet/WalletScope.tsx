/**
 * wagmi for the screens that sign or show a wallet (Menu's purchase panel, Settings). Loaded on demand, so
 * the Shelf paints without wagmi, viem's wallet code and WalletConnect. One config for the whole run: the
 * connection survives leaving a wallet screen and coming back.
 */
import type { ReactNode } from 'react';
import { WagmiProvider } from 'wagmi';
import { useRpc } from '../rpc/context';
import { createWagmiConfig } from './config';
import { FollowExternalWallet } from './FollowExternalWallet';

let config: ReturnType<typeof createWagmiConfig> | null = null;

export default function WalletScope(props: { children: ReactNode }) {
  const { client, mode } = useRpc();
  config ??= createWagmiConfig(client, mode);
  return (
    <WagmiProvider config={config}>
      <FollowExternalWallet />
      {props.children}
    </WagmiProvider>
  );
}
