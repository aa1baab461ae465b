/** diff: how a subject changed between two owned reports, as text (word diff in git's markup) or JSON. */
import type { DeskCore } from '../core';
import { diffText } from '../host/text/report-diff';
import type { Output } from './output';

export async function diff(desk: DeskCore, out: Output, first: string, second: string): Promise<void> {
  const result = await desk.handlers['report.diff']({ a: { id: first }, b: { id: second } });
  out.result(result, () => diffText(result));
}
