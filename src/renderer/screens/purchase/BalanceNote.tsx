/** Says so when the wallet's balance is below the price, before anyone signs. */
import type { QuoteView, WalletView } from '../../../shared/rpc';

export function BalanceNote(props: { quote: QuoteView; wallet: WalletView | undefined }) {
  const balance = props.wallet?.balanceUsdc;
  if (balance === null || balance === undefined || Number(balance) >= props.quote.totalUsd) return null;
  return <p className="warn-text">Your balance ({balance} USDC) is below this price.</p>;
}
