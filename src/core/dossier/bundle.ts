/**
 * A dossier bundle read from outside (a file, a saved draft, the renderer) and checked against the wire
 * schema; its own module so the CLI and core's dossier handlers share it without the CLI importing a handler.
 */
import { bundleSchema, type Bundle } from '../../shared/wire';
import { DeskError } from '../base/errors';

/** `what` names where the bundle came from ("file x.json", "saved draft"), for the error. */
export function parseBundle(value: unknown, what: string): Bundle {
  const parsed = bundleSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DeskError(
      'invalid_bundle',
      `The ${what} is not a valid dossier at ${issue?.path.join('.') || 'the top level'}: ${issue?.message ?? ''}.`,
      'usage',
      {
        path: issue?.path ?? [],
      },
    );
  }
  return parsed.data;
}
