/** Unpacks a paid answer into snapshots, keeping each report's bytes exactly as the service sent them. */
import type { PaidSuccess } from '../../shared/wire';
import { topLevelArrayElements } from '../cache/json-slices';
import type { StoredSnapshot } from '../cache/snapshots';

export function snapshotsFromAnswer(body: PaidSuccess, text: string): StoredSnapshot[] {
  const raws = topLevelArrayElements(text, 'reports');
  return body.reports.map((snapshot, index) => {
    const raw = raws?.[index];
    // The slice is used only when it is provably the same report; otherwise keep a faithful re-serialisation.
    const exact = raw !== undefined && (JSON.parse(raw) as { id?: unknown }).id === snapshot.id;
    return { snapshot, raw: exact ? raw : JSON.stringify(snapshot) };
  });
}
