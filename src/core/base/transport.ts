/** The transport rule of src/shared/transport.ts as core's refusal: a DeskError a person can act on. */
import { encryptedOrLocal, insecureTransportSentence, type TransportUse } from '../../shared/transport';
import { DeskError } from './errors';

/**
 * Refuses a plain-http address off this computer before anything is sent to it. `where` says how to give
 * another one ("in Settings", "with --service").
 */
export function requireEncryptedOrLocal(use: TransportUse, url: string, where: string): void {
  if (encryptedOrLocal(url)) return;
  throw new DeskError('insecure_transport', insecureTransportSentence(use, url, where), 'usage', {
    url,
    notSent: true,
  });
}
