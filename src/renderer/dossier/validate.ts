/** Raw JSON of a dossier checked the way the service will check it, with the error's exact location. */
import { bundleSchema, type Bundle } from '../../shared/wire';

export type RawCheck = { ok: true; bundle: Bundle } | { ok: false; where: string; message: string };

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

export function checkRawDossier(text: string): RawCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : 'invalid JSON';
    const position = /position (\d+)/.exec(message);
    return { ok: false, where: position ? lineAndColumn(text, Number(position[1])) : 'JSON', message };
  }
  const parsed = bundleSchema.safeParse(json);
  if (parsed.success) return { ok: true, bundle: parsed.data };
  const issue = parsed.error.issues[0];
  const where =
    issue && issue.path.length > 0
      ? issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : 'top level';
  return { ok: false, where, message: issue?.message ?? 'invalid dossier' };
}
