/**
 * An amount as the assistant reads it: the token base units exactly as the contract carries them, and the
 * same amount as a person reads it ("$0.0125"), so a model never has to place the decimal point itself.
 */
import { formatUnitsUsd } from '../shared/money';

export interface McpMoney {
  /** USDC base units (six decimals), a decimal integer string. */
  units: string;
  text: string;
}

export const money = (units: string | bigint): McpMoney => ({
  units: units.toString(),
  text: formatUnitsUsd(units),
});
