/** Says so when the wallet's balance is below the price, before anyone signs. */
import type { QuoteView, WalletView } from '../../../shared/rpc';

export function BalanceNote(props: { quote: QuoteView; wallet: WalletView | undefined }) {
  const units = props.wallet?.balanceUnits;
  // Base units against base units: 0.0125 USDC covers a $0.01 report.
  if (units === null || units === undefined || BigInt(units) >= BigInt(props.quote.amount)) return null;
  return <p className="warn-text">Your balance ({props.wallet?.balanceUsdc} USDC) is below this price.</p>;
}
