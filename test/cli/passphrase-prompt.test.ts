/**
 * The hidden passphrase prompt: unit-tested on a stand-in terminal stream, then for real on a pseudo-terminal
 * (util-linux `script`), where the terminal itself would echo anything typed outside raw mode.
 */
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { canPrompt, readHidden } from '../../src/cli/passphrase-prompt';
import { tempDir } from '../core/helpers';
import { closedPortUrl } from '../closed-port';
import { runCli } from './run-cli';
import { cliOnTerminal, hasScript } from './terminal';

/** A terminal on stdin as the prompt sees it: raw mode switches, and typed keys arrive as data. */
class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  raw: boolean[] = [];
  paused = true;
  /** Raw mode switches and prompt text, in the order they happened. */
  log: string[] = [];
  setRawMode(raw: boolean) {
    this.raw.push(raw);
    this.log.push(raw ? 'raw on' : 'raw off');
  }
  resume() {
    this.paused = false;
  }
  pause() {
    this.paused = true;
  }
  type(keys: string) {
    this.emit('data', Buffer.from(keys, 'utf8'));
  }
}

function prompt(question = 'Passphrase: ') {
  const input = new FakeTerminal();
  let shown = '';
  const write = (text: string) => {
    shown += text;
    input.log.push(`shows ${JSON.stringify(text)}`);
  };
  const answer = readHidden(question, { input, output: { write } });
  return { input, answer, shown: () => shown };
}

describe('readHidden on a terminal', () => {
  it('reads a line in raw mode, prints none of it, and gives the terminal back', async () => {
    const { input, answer, shown } = prompt();
    input.type('quartz lan');
    input.type('tern\r');
    await expect(answer).resolves.toBe('quartz lantern');
    expect(shown()).toBe('Passphrase: \n');
    // Echo is off before the question shows, so no key typed after it can be echoed.
    expect(input.log).toEqual(['raw on', 'shows "Passphrase: "', 'raw off', 'shows "\\n"']);
    expect(input.paused).toBe(true);
    expect(input.listenerCount('data')).toBe(0);
  });

  it('erases with backspace and Ctrl-U, and skips arrow keys', async () => {
    const { input, answer } = prompt();
    input.type('wrong');
    input.type('\u0015');
    input.type('ab\u007fc');
    input.type('\u001b[D');
    input.type('dé\b\r');
    await expect(answer).resolves.toBe('acd');
  });

  it('cancels on Ctrl-C, and on Ctrl-D with nothing typed', async () => {
    const interrupted = prompt();
    interrupted.input.type('secr\u0003');
    await expect(interrupted.answer).rejects.toThrow(
      /Cancelled at the passphrase prompt; nothing was changed/,
    );
    expect(interrupted.input.raw).toEqual([true, false]);
    const ended = prompt();
    ended.input.type('\u0004');
    await expect(ended.answer).rejects.toThrow(/Cancelled/);
  });

  it('is not offered when stdin is not a terminal', async () => {
    const pipe = Object.assign(new EventEmitter(), { isTTY: false, resume() {}, pause() {} });
    expect(canPrompt(pipe)).toBe(false);
    await expect(readHidden('Passphrase: ', { input: pipe, output: { write: () => true } })).rejects.toThrow(
      /needs a terminal/,
    );
  });
});

describe.skipIf(!hasScript)('intel-desk asks for the passphrase on a terminal', () => {
  const PASSPHRASE = 'quartz lantern meadow oxide';
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  let data: ReturnType<typeof tempDir>;
  let env: Record<string, string | undefined>;
  let keyFile: string;

  beforeAll(async () => {
    data = tempDir('desk-cli-prompt-');
    keyFile = path.join(data.dir, 'a.key');
    writeFileSync(keyFile, key, { mode: 0o600 });
    env = {
      INTEL_DESK_SERVICE_URL: await closedPortUrl(),
      INTEL_DESK_DATA_DIR: data.dir,
      INTEL_DESK_PASSPHRASE: undefined,
      INTEL_DESK_PRIVATE_KEY: undefined,
      INTEL_DESK_RPC_URL: undefined,
    };
  });
  afterAll(() => data?.remove());

  it('without the variable and without a terminal, says to set it, as before', async () => {
    const run = await runCli(['wallet', 'import', '--key-file', keyFile], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/set the wallet passphrase in \$INTEL_DESK_PASSPHRASE/);
  });

  it('refuses two different passphrases and stores nothing', async () => {
    const run = await cliOnTerminal(['wallet', 'import', '--key-file', keyFile], env, [
      ['New wallet passphrase: ', PASSPHRASE],
      ['The same passphrase again: ', `${PASSPHRASE}!`],
    ]);
    expect(run.screen).toMatch(/the two passphrases typed differ; nothing was stored/);
    expect(run.code).toBe(2);
    const status = await runCli(['wallet', 'status', '--json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ address: null });
  });

  it('imports with a passphrase typed twice, unseen, and unlocks with it to sign', async () => {
    const imported = await cliOnTerminal(['wallet', 'import', '--key-file', keyFile], env, [
      ['New wallet passphrase: ', PASSPHRASE],
      ['The same passphrase again: ', PASSPHRASE],
    ]);
    expect(imported.code).toBe(0);
    expect(imported.screen).toContain(address);
    expect(imported.screen).not.toContain('quartz');

    // restore signs in to the service: a wrong passphrase stops it at the wallet (exit 3); the right one
    // unlocks it, and the run goes on to the service, which does not answer (exit 5).
    const wrong = await cliOnTerminal(['restore'], env, [[`Passphrase of the wallet ${address}`, 'not it']]);
    expect(wrong.screen).toMatch(/does not unlock this wallet/);
    expect(wrong.code).toBe(3);
    const right = await cliOnTerminal(['restore'], env, [
      [`Passphrase of the wallet ${address}`, PASSPHRASE],
    ]);
    expect(right.screen).not.toMatch(/does not unlock this wallet/);
    expect(right.screen).not.toContain('quartz');
    expect(right.code).toBe(5);
  });
});
