/** GET/PUT /api/intel/bundle: the full dossier, first-party only, behind the library secret. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bundleSchema } from '../../shared/wire';
import { handleKey, type HandleStore } from '../store/handles';
import { HttpError, readBody, sendJson } from './respond';
import { librarySecretMatches, presentedLibrarySecret } from './library-secret';
import { requireHandle } from './reports-route';

export const BUNDLE_BODY_LIMIT = 10 * 1024 * 1024;

export async function handleBundle(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  store: HandleStore,
  librarySecret: string,
): Promise<void> {
  const secret = presentedLibrarySecret(req.headers);
  if (secret === null)
    throw new HttpError(401, 'library_secret_required', 'the bundle route needs the library secret');
  if (!librarySecretMatches(secret, librarySecret)) {
    throw new HttpError(401, 'invalid_library_secret', 'the library secret is not accepted');
  }
  const key = requireHandle(url);
  if (req.method === 'GET') {
    const bundle = store.bundle(key);
    if (!bundle) throw new HttpError(404, 'unknown_handle', `no dossier is held for ${key}`);
    sendJson(res, 200, bundle);
    return;
  }
  const text = await readBody(req, BUNDLE_BODY_LIMIT);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'the request body is not JSON');
  }
  const parsed = bundleSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(
      400,
      'invalid_bundle',
      `bundle is malformed at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
    );
  }
  if (handleKey(parsed.data.username) !== key) {
    throw new HttpError(400, 'username_mismatch', 'the bundle username differs from the username parameter');
  }
  if (Number.isNaN(Date.parse(parsed.data.gatheredAt))) {
    throw new HttpError(400, 'invalid_bundle', 'gatheredAt must be an ISO timestamp');
  }
  sendJson(res, 200, store.putBundle(parsed.data));
}
