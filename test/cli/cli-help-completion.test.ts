/**
 * The help and the shell completion come from the command table that dispatches: every command the CLI runs
 * is in `--help`, has its own `--help`, and completes in bash, zsh and fish, with its actions and flags, and
 * file names after a flag that takes a file.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_NAMES, COMMAND_TABLE } from '../../src/cli/command-table';
import { tempDir } from '../core/helpers';
import { runCli } from './run-cli';

// No library is opened for help or completion: a data folder that does not exist proves it.
const env = { INTEL_DESK_DATA_DIR: '/nonexistent/intel-desk-help', INTEL_DESK_SERVICE_URL: undefined };

describe('intel-desk --help', () => {
  it('lists exactly the commands the table runs, in its order', async () => {
    const run = await runCli(['--help'], env);
    expect(run.code).toBe(0);
    const listed = [...run.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1]);
    expect([...new Set(listed)]).toEqual(COMMAND_NAMES);
  });

  it.each(COMMAND_TABLE.map((command) => [command.name, command] as const))(
    '%s --help shows its forms and its own flags',
    async (name, command) => {
      const run = await runCli([name, '--help'], env);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout.startsWith(`intel-desk ${command.forms[0]?.usage ?? ''}\n`)).toBe(true);
      for (const form of command.forms) expect(run.stdout).toContain(`intel-desk ${form.usage}`);
      for (const option of command.options)
        expect(run.stdout).toMatch(new RegExp(`^ {2}--${option}\\b`, 'm'));
      expect(run.stdout).toMatch(/^Global options: --json, --service URL/m);
    },
  );

  it('says what a shared flag means for the command asked about', async () => {
    const restore = await runCli(['restore', '--help'], env);
    expect(restore.stdout).toMatch(/^ {2}--from FILE +the backup to put back/m);
    const buy = await runCli(['buy', '--help'], env);
    expect(buy.stdout).toMatch(/^ {2}--from D +from this ISO date or timestamp$/m);
    expect(buy.stdout).not.toContain('backup');
    // buy asks nothing at a terminal: its --yes is the confirmation, not a way past a question.
    expect(buy.stdout).toMatch(
      /^ {2}--yes +confirm the purchase \(buy never asks, and without it refuses\)$/m,
    );
    expect(buy.stdout).not.toContain('without asking');
    const receipt = await runCli(['receipt', '--help'], env);
    expect(receipt.stdout).toMatch(/^ {2}--format F +json or pdf/m);
  });

  it('refuses --help for a command that does not exist, naming the nearest', async () => {
    const run = await runCli(['wallte', '--help'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "wallte"\. Did you mean wallet\?/);
  });
});

describe('intel-desk completion', () => {
  let data: ReturnType<typeof tempDir>;
  let scripts: { bash: string; zsh: string; fish: string };
  /** A folder to complete in: a file, a key file and a folder. */
  let files: string;
  beforeAll(async () => {
    data = tempDir('desk-cli-completion-');
    const [bash, zsh, fish] = await Promise.all([
      runCli(['completion', 'bash'], env),
      runCli(['completion', 'zsh'], env),
      runCli(['completion', 'fish'], env),
    ]);
    expect([bash.code, zsh.code, fish.code]).toEqual([0, 0, 0]);
    scripts = {
      bash: path.join(data.dir, 'intel-desk.bash'),
      zsh: path.join(data.dir, '_intel-desk'),
      fish: path.join(data.dir, 'intel-desk.fish'),
    };
    writeFileSync(scripts.bash, bash.stdout);
    writeFileSync(scripts.zsh, zsh.stdout);
    writeFileSync(scripts.fish, fish.stdout);
    files = path.join(data.dir, 'here');
    mkdirSync(path.join(files, 'backups'), { recursive: true });
    writeFileSync(path.join(files, 'buyer.key'), '');
    writeFileSync(path.join(files, 'desk-copy.db'), '');
  });
  afterAll(() => data?.remove());

  /** What bash offers for the words typed so far, the last being the one completed. */
  function bashOffers(...words: string[]): string[] {
    const shell = spawnSync(
      'bash',
      [
        '-c',
        `source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _intel_desk; printf '%s\\n' "\${COMPREPLY[@]}"`,
        scripts.bash,
        'intel-desk',
        ...words,
      ],
      { encoding: 'utf8', cwd: files },
    );
    expect(shell.stderr).toBe('');
    return shell.stdout.split('\n').filter(Boolean);
  }

  it('offers commands, actions, flags and flag values in bash', () => {
    expect(bashOffers('')).toEqual(COMMAND_NAMES);
    expect(bashOffers('wal')).toEqual(['wallet']);
    expect(bashOffers('wallet', '')).toEqual(['status', 'import']);
    expect(bashOffers('secret', 'c')).toEqual(['clear']);
    expect(bashOffers('buy', 'h', '--ov')).toEqual(['--over-cap']);
    expect(bashOffers('export', 'rpt_1', '--format', '')).toEqual([
      'json',
      'md',
      'pdf',
      'csl-json',
      'bibtex',
      'md-folder',
    ]);
    // A flag of another command is not offered; a file argument is left to bash's file names.
    expect(bashOffers('list', '--ov')).toEqual([]);
    expect(bashOffers('bundle', 'put', 'h', '')).toEqual([]);
  });

  it('offers file names after a flag that takes a file in bash, and folders after one that takes a folder', () => {
    const everything = ['backups', 'buyer.key', 'desk-copy.db'];
    expect(bashOffers('wallet', 'import', '--key-file', '').sort()).toEqual(everything);
    expect(bashOffers('wallet', 'import', '--key-file', 'bu')).toEqual(['buyer.key']);
    expect(bashOffers('wallet', 'import', '--keystore', '').sort()).toEqual(everything);
    // restore --from names a backup file; quote --from a date, so nothing is offered for it.
    expect(bashOffers('restore', '--from', 'de')).toEqual(['desk-copy.db']);
    expect(bashOffers('quote', 'h', '--from', 'de')).toEqual([]);
    expect(bashOffers('library', '--data-dir', '')).toEqual(['backups']);
  });

  it('offers every command its table flags in bash', () => {
    for (const command of COMMAND_TABLE) {
      const offered = bashOffers(command.name, '--');
      for (const option of command.options) expect(offered).toContain(`--${option}`);
      expect(offered).toContain('--json');
    }
  });

  const zsh = spawnSync('zsh', ['--version']).status === 0;

  it.skipIf(!zsh)('is a zsh script that describes the commands and each one’s actions and flags', () => {
    // _describe and _arguments stand in for zsh's completion system, printing what they were given.
    const shell = spawnSync(
      'zsh',
      [
        '-c',
        [
          'compdef() { print -r -- "compdef $*" }',
          '_describe() { print -rl -- ${(P)${@[-1]}} }',
          '_arguments() { print -rl -- "$@" }',
          'source "$1"',
          'words=(intel-desk ""); CURRENT=2; _intel_desk',
          'print -- ---',
          'words=(intel-desk wallet ""); CURRENT=3; _intel_desk',
        ].join('\n'),
        'zsh',
        scripts.zsh,
      ],
      { encoding: 'utf8' },
    );
    expect(shell.stderr).toBe('');
    const [top = '', wallet = ''] = shell.stdout.split('---\n');
    expect(top).toMatch(/^compdef _intel_desk intel-desk$/m);
    const described = top.split('\n').filter((line) => line.includes(':'));
    expect(described.map((line) => line.split(':')[0])).toEqual(COMMAND_NAMES);
    expect(described).toContain('search:search your library');
    expect(wallet.split('\n')).toEqual(
      expect.arrayContaining([
        '-S',
        '1:action:(status import)',
        '--replace[replace a wallet of another address (its keystore is kept in backups/)]',
        '--key-file=[a file holding a private key]:F:_files',
      ]),
    );
  });

  it.skipIf(!zsh)('completes a file after restore --from in zsh, and no file after quote --from', () => {
    const shell = spawnSync(
      'zsh',
      [
        '-c',
        [
          'compdef() { }',
          '_arguments() { print -rl -- "$@" }',
          'source "$1"',
          'words=(intel-desk restore ""); CURRENT=3; _intel_desk',
          'print -- ---',
          'words=(intel-desk quote ""); CURRENT=3; _intel_desk',
        ].join('\n'),
        'zsh',
        scripts.zsh,
      ],
      { encoding: 'utf8' },
    );
    expect(shell.stderr).toBe('');
    const [restore = '', quote = ''] = shell.stdout.split('---\n');
    expect(restore.split('\n')).toContain(
      '--from=[the backup to put back (without it  restore purchases from the service)]:FILE:_files',
    );
    expect(quote.split('\n')).toContain('--from=[from this ISO date or timestamp]:D: ');
  });

  const fish = spawnSync('fish', ['--version']).status === 0;

  /** What fish itself offers (`complete -C`) for a command line, in the folder with the test's files. */
  function fishOffers(line: string): string[] {
    const shell = spawnSync(
      'fish',
      ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', scripts.fish, line],
      {
        encoding: 'utf8',
        cwd: files,
      },
    );
    expect(shell.stderr).toBe('');
    return shell.stdout
      .split('\n')
      .filter(Boolean)
      .map((offer) => offer.split('\t')[0] ?? '');
  }

  it.skipIf(!fish)('completes commands, actions, flags, values and file names in fish', () => {
    expect(fishOffers('intel-desk ')).toEqual([...COMMAND_NAMES].sort());
    expect(fishOffers('intel-desk wal')).toEqual(['wallet']);
    expect(fishOffers('intel-desk wallet ')).toEqual(['import', 'status']);
    expect(fishOffers('intel-desk help wa')).toEqual(['wallet']);
    expect(fishOffers('intel-desk buy h --ov')).toEqual(['--over-cap']);
    expect(fishOffers('intel-desk list --ov')).toEqual([]);
    expect(fishOffers('intel-desk export rpt_1 --format ')).toEqual([
      'bibtex',
      'csl-json',
      'json',
      'md',
      'md-folder',
      'pdf',
    ]);
    expect(fishOffers('intel-desk wallet import --key-file ')).toEqual([
      'backups/',
      'buyer.key',
      'desk-copy.db',
    ]);
    expect(fishOffers('intel-desk restore --from de')).toEqual(['desk-copy.db']);
    expect(fishOffers('intel-desk quote h --from ')).toEqual([]);
    expect(fishOffers('intel-desk library --data-dir ')).toEqual(['backups/']);
    for (const command of COMMAND_TABLE) {
      const offered = fishOffers(`intel-desk ${command.name} --`);
      for (const option of command.options) expect(offered).toContain(`--${option}`);
      expect(offered).toContain('--json');
    }
  });

  it('names the shells it knows', async () => {
    const run = await runCli(['completion', 'zhs'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/completion takes bash, zsh or fish\. Did you mean zsh\?/);
  });
});
