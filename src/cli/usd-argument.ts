/** Dollar amounts typed on the command line, read exactly into token base units (decision 0034). */
import { parseLimitInput } from '../shared/money';
import { UsageError } from './output';

/**
 * A dollar argument ("25", "$1.50", "0.0125") as base units; refused, naming `what`, when it is negative,
 * finer than USDC's six decimals, over a million USD, or no amount.
 */
export function usdArgument(raw: string, what: string): bigint {
  const read = parseLimitInput(raw);
  if (!read.ok) throw new UsageError(`${what}: ${read.message}`);
  return read.units;
}
