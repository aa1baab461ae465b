/**
 * An owned report as an assistant is given it outside a tool answer (a resource read, a prompt): Markdown
 * under a header naming its service, handle, when it was bought and the purchase, the report text fenced as
 * data (decision 0040).
 */
import type { CoreCall } from './call';
import { fence, oneLine, provenanceOf } from './text';

export async function reportMarkdown(call: CoreCall, serviceUrl: string, id: string): Promise<string> {
  const view = await call('report.get', { id, serviceUrl });
  const md = await call('report.export', { id, serviceUrl: view.serviceUrl, format: 'md' });
  const fenced = fence(provenanceOf(view));
  const header = [
    '---',
    `service: ${oneLine(view.serviceUrl)}`,
    `handle: ${oneLine(view.handle)}`,
    `report: ${oneLine(view.snapshot.id)}`,
    `bought: ${view.purchase?.createdAt ?? 'unknown'}`,
    `purchase: ${view.purchase?.id ?? 'unknown'}`,
    '---',
  ].join('\n');
  return [header, '', fenced.open, '', fenced.inside(md.content), '', fenced.close].join('\n');
}
