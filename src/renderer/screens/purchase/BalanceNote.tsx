/** Says so when the wallet's balance is below the price, before anyone signs. */
import type { QuoteView, WalletView } from '../../../shared/rpc';
import { TOKEN_DECIMALS } from '../../../shared/money';
import { tokenAmount } from '../../format';
import { purchaseText as t } from '../../text/purchase';

export function BalanceNote(props: { quote: QuoteView; wallet: WalletView | undefined }) {
  const units = props.wallet?.balanceUnits;
  // Base units against base units: 0.0125 USDC covers a $0.01 report.
  if (units === null || units === undefined || BigInt(units) >= BigInt(props.quote.amount)) return null;
  return <p className="warn-text">{t('balanceLow', { balance: tokenAmount(units, TOKEN_DECIMALS, 2) })}</p>;
}
