/**
 * Reading paid routes with the library secret (spec 5.8): nothing is signed or paid, so none of the payment
 * rules apply, but what arrives must be what was asked for, and the read is recorded in the history.
 */
import { randomUUID } from 'node:crypto';
import { DeskError } from '../base/errors';
import type { DeskDb } from '../db/open';
import type { PurchaseLedger } from '../ledger/purchases';
import type { SnapshotStore } from '../library/snapshots';
import type { ServiceClient } from '../client/service-client';
import type { HeldQuote } from './quote-book';
import type { LibrarySecret } from '../library/library-secret';
import { deliveryMismatch, snapshotsFromAnswer, type DeliveryExpectation } from './delivery';

export interface SecretReadDeps {
  db: DeskDb;
  ledger: PurchaseLedger;
  snapshots: SnapshotStore;
  client: () => ServiceClient;
  /** Sets a refused secret aside, so it stops standing in for buying, and says so. */
  librarySecret: Pick<LibrarySecret, 'refusedOnRead'>;
  now: () => number;
}

/** Reads the held quote's reports with the secret and stores them; answers the history row's id. */
export async function readWithSecret(deps: SecretReadDeps, held: HeldQuote, secret: string): Promise<string> {
  const client = deps.client();
  let text: Awaited<ReturnType<typeof client.readWithSecretText>>;
  try {
    text = await client.readWithSecretText(held.quote.resource, secret);
  } catch (error) {
    if (error instanceof DeskError && error.code === 'invalid_library_secret') {
      throw deps.librarySecret.refusedOnRead(secret);
    }
    throw error;
  }
  const expected: DeliveryExpectation = {
    handle: held.handle,
    reportCount: held.quote.reportCount,
    ids: held.expectedIds,
  };
  const mismatch = deliveryMismatch(expected, text.body);
  if (mismatch !== null) {
    throw new DeskError(
      'delivery_mismatch',
      `The service answered with ${mismatch}. Nothing was stored and nothing was paid.`,
      'service',
    );
  }
  const id = randomUUID();
  const createdAt = new Date(deps.now()).toISOString();
  const entries = snapshotsFromAnswer(text.body, text.text);
  deps.db
    .transaction(() => {
      deps.ledger.insertFree(
        {
          id,
          serviceUrl: client.baseUrl,
          handle: held.handle,
          resource: held.quote.resource,
          reportCount: entries.length,
          quoteJson: JSON.stringify({ selection: held.selection }),
          createdAt,
        },
        entries.map((entry) => entry.snapshot.id),
      );
      deps.snapshots.put(client.baseUrl, held.handle, entries, id, createdAt);
    })
    .immediate();
  return id;
}
