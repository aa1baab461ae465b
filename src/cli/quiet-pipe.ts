/**
 * A reader that stops early (`intel-desk library --json | head -3`) closes the pipe; the next write then fails
 * with EPIPE, which Node raises as an unhandled 'error' with a stack trace. The reader has what it wanted, so
 * that failure is not the command's: it is let go in silence and the command finishes as it would have (a
 * purchase under way is never cut short by a closed pipe), with its own exit code.
 */
export function quietWhenTheReaderLeaves(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
