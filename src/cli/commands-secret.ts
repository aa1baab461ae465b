/**
 * secret set | clear | status: storing the library secret is an explicit command. The secret comes from
 * $INTEL_DESK_LIBRARY_SECRET or stdin, never from the command line (where other users' `ps` would see it).
 */
import { z } from 'zod';
import type { DeskCore } from '../core';
import type { SettingsView } from '../shared/rpc';
import { DeskError } from '../core/base/errors';
import { UsageError, type Output } from './output';
import { didYouMean } from './suggest';

export const SECRET_ENV = 'INTEL_DESK_LIBRARY_SECRET';
/** The origin the environment's secret may go to; without it, only the saved service. */
export const SECRET_ORIGIN_ENV = 'INTEL_DESK_LIBRARY_SECRET_ORIGIN';

const originSchema = z.url().max(2048);

/** $INTEL_DESK_LIBRARY_SECRET_ORIGIN, checked: a URL, or unset. */
export function secretOriginFromEnv(): string | undefined {
  const raw = process.env[SECRET_ORIGIN_ENV];
  if (raw === undefined || raw === '') return undefined;
  const parsed = originSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(`${SECRET_ORIGIN_ENV} must be a URL such as https://reports.example.com`);
  return parsed.data;
}

const secretSchema = z.string().trim().min(1).max(4096);

async function readSecret(): Promise<{ value: string; fromEnv: boolean }> {
  const fromEnv = process.env[SECRET_ENV];
  if (fromEnv) return { value: fromEnv, fromEnv: true };
  if (process.stdin.isTTY)
    throw new UsageError(
      `pipe the secret in (intel-desk secret set < secret.txt) or set ${SECRET_ENV}; it is never taken from the command line`,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const parsed = secretSchema.safeParse(Buffer.concat(chunks).toString('utf8'));
  if (!parsed.success)
    throw new UsageError('the library secret on stdin is empty or longer than 4096 characters');
  return { value: parsed.data, fromEnv: false };
}

function describe(view: SettingsView): string {
  if (!view.librarySecretOrigin) return 'no library secret is stored';
  if (!view.librarySecretSet)
    return `a library secret is stored for ${view.librarySecretOrigin}, not for the service now selected (${view.serviceUrl}); it is not used here`;
  const state =
    view.librarySecretAccepted === true
      ? 'accepted by the service'
      : view.librarySecretAccepted === false
        ? 'refused by the service, so it is not used; store the right one with `intel-desk secret set`'
        : 'not checked yet';
  return `a library secret is stored for ${view.librarySecretOrigin}: ${state}`;
}

export async function secret(desk: DeskCore, out: Output, action: string): Promise<void> {
  const view = (value: SettingsView) => ({
    stored: value.librarySecretOrigin !== null,
    origin: value.librarySecretOrigin,
    accepted: value.librarySecretAccepted,
  });
  if (action === 'status') {
    const settings = await desk.handlers['settings.get']({});
    out.result(view(settings), () => describe(settings));
    return;
  }
  if (action === 'clear') {
    const settings = await desk.handlers['settings.clearLibrarySecret']({});
    out.result(view(settings), () => 'the stored library secret is forgotten');
    return;
  }
  if (action !== 'set')
    throw new UsageError(
      `secret takes set, clear or status.${didYouMean(action, ['set', 'clear', 'status'])}`,
    );
  const { value, fromEnv } = await readSecret();
  const boundTo = fromEnv ? secretOriginFromEnv() : undefined;
  out.progress('asking the service whether it accepts the secret…');
  const settings = await desk.handlers['settings.setLibrarySecret']({
    secret: value,
    ...(fromEnv ? { fromEnvironment: boundTo === undefined ? {} : { boundTo } } : {}),
  });
  if (settings.librarySecretAccepted === false) {
    throw new DeskError(
      'invalid_library_secret',
      `The service refused that library secret; it is stored as refused and never used in place of buying. Check it and run \`intel-desk secret set\` again.`,
      'refused',
    );
  }
  out.result(view(settings), () => describe(settings));
}
