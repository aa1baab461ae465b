/**
 * A yes-or-no question at the terminal, answered in words the person types and sees (stderr, so stdout stays
 * the command's output). Only when stdin is a terminal: a script or a pipe cannot answer it.
 */
import { createInterface } from 'node:readline/promises';
import { DeskError } from '../core/base/errors';
import { canPrompt } from './passphrase-prompt';

/** True only for "yes" or "y"; Ctrl-C or the end of input cancels. */
export async function confirmAtTerminal(question: string): Promise<boolean> {
  if (!canPrompt()) throw new Error('confirmAtTerminal needs a terminal on stdin');
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const stop = new AbortController();
  lines.on('SIGINT', () => stop.abort());
  lines.on('close', () => stop.abort());
  try {
    const answer = await lines.question(question, { signal: stop.signal });
    return /^\s*y(es)?\s*$/i.test(answer);
  } catch {
    throw new DeskError('prompt_cancelled', 'Cancelled at the question; nothing was paid.', 'usage');
  } finally {
    lines.close();
    process.stdin.pause();
  }
}
