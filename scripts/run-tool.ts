/**
 * Runs a setup tool (Electron's installer, prebuild-install, node-gyp) as a child process: its output goes
 * to the person as it comes, a line every `heartbeatMs` says it is still working (Electron's installer shows
 * its own bar only after 30 s), and a deadline ends it. The last lines it printed name the failure.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

export interface ToolRun {
  /** What is being done, for the heartbeat and the timeout message ("fetching Electron 45.4.1"). */
  what: string;
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  heartbeatMs?: number;
  log: (line: string) => void;
  /** Where the tool's own output goes (default: this process's stderr). */
  output?: Writable;
}

export type ToolResult = { ok: true } | { ok: false; reason: string };

const TAIL_LINES = 3;

export function runTool(run: ToolRun): Promise<ToolResult> {
  return new Promise((resolve) => {
    const started = Date.now();
    const output = run.output ?? process.stderr;
    let tail = '';
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      // A stack trace's frames tell the person nothing they can act on; the error line above them stays.
      output.write(chunk.toString('utf8').replace(/^[ \t]+at [^\n]*(\n|$)/gm, ''));
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const lastLines = () =>
      tail
        .split(/\r?\n|\r/)
        .map((line) => line.trim())
        // A stack trace's frames say where, not what; the error line before them says what.
        .filter((line) => line && !line.startsWith('at '))
        .slice(-TAIL_LINES)
        .join(' / ');
    const seconds = () => Math.round((Date.now() - started) / 1000);
    const heartbeat = setInterval(
      () => run.log(`… still ${run.what} (${seconds()} s)`),
      run.heartbeatMs ?? 10_000,
    );
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      // A tool stuck in a download may ignore SIGTERM; it must not outlive the deadline by much.
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    }, run.timeoutMs);
    const finish = (result: ToolResult) => {
      clearInterval(heartbeat);
      clearTimeout(deadline);
      resolve(result);
    };
    child.once('error', (error) =>
      finish({ ok: false, reason: `${run.command} could not start: ${error.message}` }),
    );
    child.once('close', (code, signal) => {
      if (timedOut) {
        finish({
          ok: false,
          reason: `${run.what} did not finish within ${Math.round(run.timeoutMs / 1000)} s and was stopped`,
        });
      } else if (code === 0) finish({ ok: true });
      else {
        const said = lastLines();
        finish({
          ok: false,
          reason: `${run.what} failed (${signal ? `signal ${signal}` : `exit ${code}`})${said ? `: ${said}` : ''}`,
        });
      }
    });
  });
}
