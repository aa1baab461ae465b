/**
 * A passphrase typed at the terminal, never shown: the terminal is put in raw mode so nothing is echoed,
 * and the prompt goes to stderr so stdout stays the command's output. Only when stdin is a terminal; a
 * script or a pipe keeps to the environment variable.
 */
import { StringDecoder } from 'node:string_decoder';
import { DeskError } from '../core/base/errors';

/** The part of a TTY read stream the prompt uses (process.stdin, or a stand-in in tests). */
export interface PromptInput {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  removeListener(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export interface PromptOutput {
  write(text: string): unknown;
}

export interface PromptStreams {
  input?: PromptInput;
  output?: PromptOutput;
}

const ENTER = new Set(['\r', '\n']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const ESCAPE = '\u001b';
const ERASE = new Set(['\u007f', '\b']);

export const cancelled = () =>
  new DeskError('prompt_cancelled', 'Cancelled at the passphrase prompt; nothing was changed.', 'usage');

/** Whether a hidden prompt can be shown: stdin is a terminal that can leave echo off. */
export function canPrompt(input: PromptInput = process.stdin): boolean {
  return input.isTTY === true && typeof input.setRawMode === 'function';
}

/** Shows `question`, reads one line without echo; Ctrl-C (or Ctrl-D on an empty line) cancels. */
export function readHidden(question: string, streams: PromptStreams = {}): Promise<string> {
  const input = streams.input ?? process.stdin;
  const output = streams.output ?? process.stderr;
  if (!canPrompt(input)) return Promise.reject(new Error('readHidden needs a terminal on stdin'));
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let typed: string[] = [];
    const finish = (outcome: () => void) => {
      input.removeListener('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      outcome();
    };
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (const char of text) {
        if (ENTER.has(char)) return finish(() => resolve(typed.join('')));
        if (char === CTRL_C || (char === CTRL_D && typed.length === 0))
          return finish(() => reject(cancelled()));
        if (ERASE.has(char)) typed = typed.slice(0, -1);
        else if (char === CTRL_U) typed = [];
        // An arrow or function key: the rest of the chunk is its escape sequence, not the passphrase.
        else if (char === ESCAPE) return;
        else if (char >= ' ') typed.push(char);
      }
    };
    // Echo goes off before the question shows: asked first, a quick typist's keys could meet a terminal
    // still echoing (the mode change waits for pending output to drain).
    input.setRawMode?.(true);
    output.write(question);
    input.on('data', onData);
    input.resume();
  });
}
