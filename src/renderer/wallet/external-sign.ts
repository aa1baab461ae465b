/** Turns core's ExternalSignRequest (bigints as strings) into the typed data a wallet signs. */
import type { Address } from 'viem';
import type { ExternalSignRequest } from '../../shared/rpc';

export function typedDataFor(request: ExternalSignRequest) {
  const { domain, types, primaryType, message } = request.typedData;
  const fields = types[primaryType] ?? [];
  const typedMessage: Record<string, string | bigint> = {};
  for (const field of fields) {
    const value = message[field.name] ?? '';
    typedMessage[field.name] = /^u?int\d*$/.test(field.type) ? BigInt(value) : value;
  }
  return {
    domain: { ...domain, verifyingContract: domain.verifyingContract as Address },
    types,
    primaryType,
    message: typedMessage,
  };
}
