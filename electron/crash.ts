/**
 * What happens when part of the app dies: minidumps are written locally and never uploaded, a dead or
 * unloadable window is logged and offers to reload, a dead helper process (GPU, network service) is logged,
 * and the page's console errors and warnings reach main.log, where a person looking for the cause reads.
 */
import { app, crashReporter, dialog, type BrowserWindow } from 'electron';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ShellLog } from './logs';

/** Chromium's code for a load another navigation replaced: not a failure. */
const ERR_ABORTED = -3;

/**
 * Starts the crash reporter with uploads off (no server is named, so none could receive them) and writes where
 * the dumps are into the log folder, beside the log a person is asked to send.
 */
export function keepCrashDumpsLocally(log: ShellLog): string {
  crashReporter.start({ uploadToServer: false });
  const dumps = app.getPath('crashDumps');
  const note = [
    'Intel Desk keeps its logs in this folder (main.log, rotated as main.log.1 ...).',
    `Crash reports (minidumps) are kept on this computer only, in ${dumps}; they are never uploaded.`,
    '',
  ].join('\n');
  try {
    writeFileSync(path.join(log.dir, 'README.txt'), note, { mode: 0o600 });
  } catch (error) {
    log.error(`Writing the note about crash reports into ${log.dir} failed`, error);
  }
  log.info(`Crash reports are kept locally in ${dumps}, never uploaded.`);
  return dumps;
}

/** Logs helper processes that end abnormally; Chromium restarts most of them on its own. */
export function watchChildProcesses(log: ShellLog): void {
  app.on('child-process-gone', (_event, details) => {
    const name = details.name ?? details.serviceName ?? details.type;
    log.error(`A helper process (${name}) ended: ${details.reason} (exit code ${details.exitCode})`);
  });
}

/** Windows a reload is being offered for: a renderer that keeps dying must not stack dialogs. */
const offering = new WeakSet<BrowserWindow>();

function offerReload(window: BrowserWindow, log: ShellLog, message: string): void {
  if (offering.has(window)) return;
  offering.add(window);
  void dialog
    .showMessageBox(window, {
      type: 'warning',
      title: 'Intel Desk',
      message,
      detail: `Reloading keeps your library and wallet; nothing was lost. The details are in ${log.file}.`,
      buttons: ['Reload', 'Close Window'],
      defaultId: 0,
      cancelId: 1,
    })
    .then(({ response }) => {
      offering.delete(window);
      if (window.isDestroyed()) return;
      if (response === 0) {
        log.info('Reloading the window, as the person chose.');
        window.webContents.reload();
      } else window.close();
    })
    .catch((error: unknown) => {
      offering.delete(window);
      log.error('Offering to reload the window failed', error);
    });
}

/** Logs a window's renderer crashes, failed loads and console errors; the first two offer a reload. */
export function watchWindow(window: BrowserWindow, log: ShellLog): void {
  const contents = window.webContents;
  contents.on('render-process-gone', (_event, details) => {
    log.error(`The window's renderer process ended: ${details.reason} (exit code ${details.exitCode})`);
    // A clean exit is the window closing; anything else left a blank window behind.
    if (details.reason !== 'clean-exit') offerReload(window, log, 'The Intel Desk window stopped working.');
  });
  contents.on('did-fail-load', (_event, errorCode, errorDescription, validatedURL, isMainFrame) => {
    if (errorCode === ERR_ABORTED) return;
    log.error(`The window could not load ${validatedURL}: ${errorDescription} (${errorCode})`);
    if (isMainFrame) offerReload(window, log, 'The Intel Desk window could not load.');
  });
  contents.on('console-message', (event) => {
    if (event.level !== 'error' && event.level !== 'warning') return;
    const where = event.sourceId ? ` (${event.sourceId}:${event.lineNumber})` : '';
    // One line per message, so page text cannot write lines of its own into the log.
    const message = event.message.replace(/\r?\n/g, '\\n');
    const line = `The window's console ${event.level}: ${message}${where}`;
    if (event.level === 'error') log.error(line);
    else log.info(line);
  });
}
