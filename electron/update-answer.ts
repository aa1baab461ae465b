/**
 * What Help → Check for Updates says. Every outcome gets its own sentence: the background check stays a log
 * line, but a person who asked is owed an answer, including when there is nothing to look at.
 */
import type { MessageBoxOptions } from 'electron';

export type UpdateAnswer =
  /** Not looked for at all: a copy run from a checkout, or the demo (both update through git and npm). */
  | { kind: 'off'; why: 'development' | 'demo' }
  /** A package built without `publish` and started without INTEL_DESK_UPDATE_URL. */
  | { kind: 'no-feed' }
  | { kind: 'up-to-date' }
  /** Newer on the feed; electron-updater is downloading it and asks to restart once it is verified. */
  | { kind: 'downloading'; version: string }
  /** Downloaded and verified already: the person may restart into it now. */
  | { kind: 'ready'; version: string }
  /** The check failed, or (with `version`) the download of a version the person was told about. */
  | { kind: 'failed'; reason: string; version?: string };

const TITLE = 'Check for Updates';
/** electron-updater's messages can carry a whole HTTP response; the log keeps it, the dialog its first line. */
const REASON_CHARS = 300;

export function shortReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n', 1)[0]?.trim() || 'no reason was given';
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}

/** The message box for an answer; `running` is the version this copy is. */
export function answerBox(answer: UpdateAnswer, running: string): MessageBoxOptions {
  const box = (message: string, detail: string, type: MessageBoxOptions['type'] = 'info') => ({
    type,
    title: TITLE,
    message,
    detail,
    buttons: ['OK'],
  });
  switch (answer.kind) {
    case 'off':
      return box(
        answer.why === 'demo'
          ? 'Updates are off in the demo.'
          : 'Updates are off in a copy run from a checkout.',
        'An installed Intel Desk looks for updates by itself. To update this copy, pull the repository and run npm install.',
      );
    case 'no-feed':
      return box(
        'This copy of Intel Desk cannot look for updates.',
        `It was built without an update feed. You have ${running}; download a newer installer from the place you got this one.`,
      );
    case 'up-to-date':
      return box(
        `Intel Desk ${running} is up to date.`,
        'There is no newer version on the update feed. Intel Desk also looks by itself at start and once a day.',
      );
    case 'downloading':
      return box(
        `Intel Desk ${answer.version} is available.`,
        `You have ${running}. It is downloading now; once it is downloaded and verified, Intel Desk asks to restart.`,
      );
    case 'ready':
      return {
        type: 'info',
        title: 'Update ready',
        message: `Intel Desk ${answer.version} is ready to install.`,
        detail: `You have ${running}. Restart now, or choose Later and it installs when you quit.`,
        buttons: ['Restart to Update', 'Later'],
        defaultId: 0,
        cancelId: 1,
      };
    case 'failed':
      return box(
        answer.version
          ? `Intel Desk ${answer.version} could not be downloaded.`
          : 'Intel Desk could not check for updates.',
        `${answer.reason}\n\nNothing was downloaded or changed. Check the internet connection and try again later; Help → Open Logs Folder has the details.`,
        'warning',
      );
  }
}
