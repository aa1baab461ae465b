/** Core's errors in the CLI's words: where core names a Settings screen or a tick box, the CLI names a command. */
import { DeskError } from '../core/base/errors';

/** Core's library-secret errors name the app's Settings; on the command line the remedy is a command. */
const cliRemedies = (
  SECRET_ENV: string,
  SECRET_ORIGIN_ENV: string,
): Record<string, (error: DeskError) => string> => ({
  library_damaged: (error) =>
    `The library file is damaged (${String(error.details['reason'])}). Run intel-desk again: the next run sets the file aside and puts the newest good backup in its place; \`intel-desk restore\` then brings back from the service what that backup lacks.`,
  library_secret_required: () =>
    `This needs the library secret: set ${SECRET_ENV} for this command, or store it with \`intel-desk secret set\`.`,
  library_secret_refused: () =>
    `The service refused the stored library secret: store the right one with \`intel-desk secret set\`, or set ${SECRET_ENV} for this command.`,
  library_secret_other_service: (error) =>
    `The stored library secret was entered for ${String(error.details['origin'])}, not this service: store this service's secret with \`intel-desk secret set\`, or set ${SECRET_ENV} for this command.`,
  library_secret_other_origin: (error) =>
    `${SECRET_ENV} is bound to ${String(error.details['origin'])} (${error.details['named'] === true ? `named by ${SECRET_ORIGIN_ENV}` : 'the saved service'}), and this run's service is ${String(error.details['service'])}: nothing was sent. To send it there, set ${SECRET_ORIGIN_ENV}=${String(error.details['service'])}; otherwise unset ${SECRET_ENV} for this command.`,
  library_secret_unreadable: () =>
    'The stored library secret cannot be unsealed here: store it again with `intel-desk secret set`, or forget it with `intel-desk secret clear`.',
  wallet_exists: (error) =>
    `A wallet is already set up here (${String(error.details['current'])}); importing ${String(error.details['incoming'])} would replace it, so nothing was changed. Add --replace to replace it (the current keystore is kept in the backups folder of the data folder).`,
  budget_unknown_handle: (error) =>
    error.message.replace(/against the Shelf\.$/, 'against `intel-desk list`.'),
  // The window confirms going over a cap or budget with a tick; here it is the --over-cap flag.
  ...Object.fromEntries(
    ['over_purchase_cap', 'over_daily_cap', 'over_handle_budget'].map((code) => [
      code,
      (error: DeskError) =>
        error.message.replace(/confirm again to go over it\.$/, 'add --over-cap to go over it.'),
    ]),
  ),
});

export async function withCliRemedy(error: unknown): Promise<unknown> {
  if (!(error instanceof DeskError)) return error;
  const { SECRET_ENV, SECRET_ORIGIN_ENV } = await import('./commands-secret');
  const remedy = cliRemedies(SECRET_ENV, SECRET_ORIGIN_ENV)[error.code];
  return remedy ? new DeskError(error.code, remedy(error), error.kind, error.details) : error;
}
