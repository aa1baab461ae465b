/** What the purchaser asks of a wallet and of the service before anything is signed. */
import { DeskError } from '../base/errors';
import { authorizationMessage, typedData, type Authorization } from './authorization';
import type { HeldQuote } from './quote-book';

/** What an external wallet is asked to sign: the EIP-712 data, with numbers as decimal strings. */
export function externalRequest(purchaseId: string, held: HeldQuote, authorization: Authorization) {
  const data = typedData(held.quote, authorization);
  return {
    purchaseId,
    typedData: {
      domain: data.domain,
      types: { TransferWithAuthorization: [...data.types.TransferWithAuthorization] },
      primaryType: 'TransferWithAuthorization' as const,
      message: authorizationMessage(authorization),
    },
  };
}

/** Runs a pre-signing contact with the service; a network failure becomes a clear service_unreachable. */
export async function unreachableBeforeSigning<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof DeskError && error.kind === 'network' && error.code !== 'service_unreachable') {
      throw new DeskError(
        'service_unreachable',
        `${error.message} Nothing was signed or sent; buy again when the service is back.`,
        'network',
        {},
        { cause: error },
      );
    }
    throw error;
  }
}
