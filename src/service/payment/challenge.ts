/** The 402 challenge of spec 2.4, with the standard x402 v2 fields generic clients need (x402-notes.md). */
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { formatUnits } from 'viem';
import type { PaymentChallenge, PaymentRequirement, ReportSelect } from '../../shared/wire';
import { usdNumberToUnits } from '../../shared/money';

export interface PaymentTerms {
  network: `eip155:${number}`;
  chainId: number;
  asset: string;
  payTo: string;
  unitPriceUsd: number;
}

export const TOKEN_DECIMALS = 6;
export const MAX_TIMEOUT_SECONDS = 300;
export const TOKEN_DOMAIN = { name: 'USD Coin', version: '2' } as const;

/** The configured price of a report in base units, read from its decimal form (never scaled as a float). */
export function unitPriceBaseUnits(unitPriceUsd: number): bigint {
  const units = usdNumberToUnits(unitPriceUsd);
  if (units === null) throw new RangeError(`${unitPriceUsd} USD is not a price in whole USDC base units`);
  return units;
}

/** Base units as the JSON number of USD the spec's bodies carry (chargedUsd, requiredUsd), from its decimal form. */
export function baseUnitsToUsd(amount: bigint): number {
  return Number(formatUnits(amount, TOKEN_DECIMALS));
}

/** The single accepts[] entry offered; a v2 client echoes it back and it must match field for field. */
export function paymentRequirement(terms: PaymentTerms, reportCount: number): PaymentRequirement {
  return {
    scheme: 'exact',
    protocol: 'x402',
    version: 2,
    network: terms.network,
    asset: terms.asset,
    amount: (unitPriceBaseUnits(terms.unitPriceUsd) * BigInt(reportCount)).toString(),
    payTo: terms.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...TOKEN_DOMAIN },
  };
}

export function paymentChallenge(
  terms: PaymentTerms,
  select: ReportSelect,
  reportCount: number,
  resourcePath: string,
  resourceUrl: string,
  /** Offer the x402 `payment-identifier` extension: a service that keeps paid answers by id (paid-answers.ts). */
  offerPaymentId = false,
): PaymentChallenge {
  return {
    x402Version: 2,
    error: 'Payment required',
    resource: {
      url: resourceUrl,
      description: `${reportCount} shared report(s)`,
      mimeType: 'application/json',
    },
    accepts: [paymentRequirement(terms, reportCount)],
    extensions: {
      chainId: terms.chainId,
      tokenDecimals: TOKEN_DECIMALS,
      unitPriceUsd: terms.unitPriceUsd,
      reportCount,
      select,
      resource: resourcePath,
      // Optional: a client that sends no id pays as before, and gets no answer back after a loss.
      ...(offerPaymentId ? { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) } : {}),
    },
  };
}
