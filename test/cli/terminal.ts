/**
 * The CLI on a pseudo-terminal (util-linux `script`), where prompts are real: the terminal itself would echo
 * anything typed outside raw mode, and stdin is a TTY as it is for a person.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './run-cli';

export const hasScript = spawnSync('script', ['--version']).status === 0;

/** A CLI run on a pseudo-terminal: each answer is typed when its prompt has appeared, never before. */
export function cliOnTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  answers: [prompt: string, typed: string][],
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, path.join(root, 'bin/intel-desk.mjs'), ...args]
    .map((word) => `'${word.replaceAll("'", `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    // Where on the screen the next prompt is looked for: after the one answered last.
    let from = 0;
    const waiting = [...answers];
    const onScreen = (chunk: Buffer) => {
      screen += chunk.toString();
      const next = waiting[0];
      const at = next ? screen.indexOf(next[0], from) : -1;
      if (next && at >= 0) {
        waiting.shift();
        from = at + next[0].length;
        child.stdin.write(`${next[1]}\r`);
      }
    };
    child.stdout.on('data', onScreen);
    child.stderr.on('data', onScreen);
    child.on('close', (code) => resolve({ code, screen }));
  });
}
