/** Opening the library for a command: the run's settings from flags and environment, each checked first. */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { DeskCore } from '../core';
import { defaultLibraryFolder } from '../core/base/app-data-folder';
import { followPurchaseSteps } from './interrupt';
import { count, UsageError } from './output';
import type { Values } from './options';
import type { TransportUse } from '../shared/transport';
import { requireEncryptedOrLocal } from '../core/base/transport';

const isFolder = (dir: string): boolean => statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** Where the run's library folder came from: named by the person, or chosen for them. */
export type LibraryChoice = { dir: string; from: 'named' | 'app' | 'home' };

/**
 * The library folder: --data-dir, else $INTEL_DESK_DATA_DIR, else the installed app's when it exists on this
 * computer, else ~/.intel-desk (decision 0047).
 */
export function libraryChoice(values: Values): LibraryChoice {
  const named = values['data-dir'] ?? process.env['INTEL_DESK_DATA_DIR'];
  if (named !== undefined && named !== '') return { dir: named, from: 'named' };
  return defaultLibraryFolder({ platform: process.platform, env: process.env, home: homedir() }, isFolder);
}

export const dataDirOf = (values: Values): string => libraryChoice(values).dir;

/** A folder the person did not name is named for them, once, on stderr (never in --json's output). */
function sayLibraryFolder(choice: LibraryChoice, json: boolean): void {
  if (choice.from === 'named' || json) return;
  const whose = choice.from === 'app' ? "the installed app's library" : 'no app library on this computer';
  process.stderr.write(`intel-desk: library ${choice.dir} (${whose}; --data-dir DIR for another)\n`);
}

function timeoutMs(values: Values): number | null {
  const raw = values.timeout ?? process.env['INTEL_DESK_TIMEOUT'];
  if (raw === undefined) return null;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
    throw new UsageError('--timeout is a number of seconds between 0 and 600');
  return Math.round(seconds * 1000);
}

/** The demo token's address from the environment; anything but an address is a usage error. */
function demoAsset(): `0x${string}` | null {
  const raw = process.env['INTEL_DESK_DEMO_ASSET'];
  if (raw === undefined || raw === '') return null;
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw))
    throw new UsageError(
      `INTEL_DESK_DEMO_ASSET must be a token address (0x and 40 hex digits), not "${raw.slice(0, 60)}"`,
    );
  return raw as `0x${string}`;
}

/** The desk's clock, moved by $INTEL_DESK_CLOCK_OFFSET_MS (a testing aid); out of range is a usage error. */
async function deskClock(): Promise<{ now?: () => number }> {
  const { CLOCK_OFFSET_ENV, offsetClock, parseClockOffset } = await import('../core/payments/clock-offset');
  const offset = parseClockOffset(process.env[CLOCK_OFFSET_ENV]);
  if (!offset.ok) throw new UsageError(offset.message);
  return offset.offsetMs === 0 ? {} : { now: offsetClock(offset.offsetMs) };
}

/**
 * A run's URL from its flag, else its environment variable: an http(s) URL, and https unless it stays on this
 * computer (decision 0040). Anything else is a usage error that names where it came from.
 */
function runUrl(values: Values, flag: 'service' | 'rpc', env: string, use: TransportUse): string | undefined {
  const url = values[flag] ?? process.env[env];
  if (url === undefined || url === '') return undefined;
  const from = values[flag] !== undefined ? `--${flag}` : env;
  if (!(URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)))
    throw new UsageError(`${from} must be an http:// or https:// URL, not "${url.slice(0, 80)}"`);
  requireEncryptedOrLocal(use, url, `with ${from}`);
  return url;
}

export async function openDesk(values: Values, command: string | undefined): Promise<DeskCore> {
  const rpcUrl = runUrl(values, 'rpc', 'INTEL_DESK_RPC_URL', 'chain RPC');
  const timeout = timeoutMs(values);
  const serviceUrl = runUrl(values, 'service', 'INTEL_DESK_SERVICE_URL', 'service');
  const asset = demoAsset();
  const clock = await deskClock();
  const [{ createDeskCore }, { sessionKey }, { SECRET_ENV, secretOriginFromEnv }] = await Promise.all([
    import('../core'),
    import('./commands-wallet'),
    import('./commands-secret'),
  ]);
  const library = libraryChoice(values);
  sayLibraryFolder(library, values.json ?? false);
  const desk = await createDeskCore({
    dataDir: library.dir,
    demo: values.demo ?? process.env['INTEL_DESK_DEMO'] === '1',
    ...(asset ? { demoAsset: asset } : {}),
    ...(serviceUrl ? { serviceUrl } : {}),
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(timeout ? { timeoutMs: timeout } : {}),
    ...clock,
    onEvent: followPurchaseSteps,
  });
  const key = sessionKey(values);
  if (key) await desk.handlers['wallet.useSessionKey']({ privateKey: key });
  // For this command only; `secret set` is the one command that stores it.
  // Bound to the saved service or to $INTEL_DESK_LIBRARY_SECRET_ORIGIN: a run naming another service is refused
  // before anything is sent.
  const librarySecret = process.env[SECRET_ENV];
  if (librarySecret && command !== 'secret') {
    const boundTo = secretOriginFromEnv();
    try {
      await desk.handlers['settings.useSessionLibrarySecret']({
        secret: librarySecret,
        ...(boundTo === undefined ? {} : { boundTo }),
      });
    } catch (error) {
      await desk.close();
      throw error;
    }
  }
  return desk;
}

/** What start-up found that the person must know, whatever the command (on stderr). */
export async function warnAtStart(desk: DeskCore, command: string | undefined): Promise<void> {
  const recovered = (await desk.handlers['app.info']({})).databaseRecovered;
  if (recovered?.restored) {
    const { restored } = recovered;
    process.stderr.write(
      `intel-desk: the library database was unusable (${recovered.reason}); it was moved to ${recovered.path}, and the newest good backup (${restored.file}, taken ${restored.takenAt}) was restored: ${count(restored.reports, 'report')} came back. Anything bought after that backup is not in it.\n`,
    );
  } else if (recovered) {
    process.stderr.write(
      `intel-desk: the library database was unusable (${recovered.reason}); it was moved to ${recovered.path} and a new one started.\n`,
    );
  }
  if (recovered && command !== 'restore')
    process.stderr.write(
      `intel-desk: ${await (await import('./commands-backup')).restoreAfterRecovery(desk)}\n`,
    );
  if (command !== 'purchases') await warnInDoubt(desk);
}

/** Purchases reconciliation could not settle at start are shown whatever the command. */
async function warnInDoubt(desk: DeskCore): Promise<void> {
  const { purchases } = await desk.handlers['purchases.list']({});
  const open = purchases.filter((p) => p.state === 'in_doubt');
  if (open.length === 0) return;
  const waits = [...new Set(open.map((p) => p.waitingFor?.summary).filter(Boolean))].join(' ');
  process.stderr.write(
    `intel-desk: ${count(open.length, 'purchase')} in doubt, never paid again automatically. ${waits} See \`intel-desk purchases\`.\n`,
  );
}
