/**
 * Every command once: its forms and what they do (the help is generated from them), its flags (its own
 * `--help` and the shell completion), and what runs it. main.ts dispatches through this table, so the help,
 * the completion and the commands cannot drift apart. Each command's module loads only when it runs.
 */
import { form, need, type CliCommand } from './command-spec';
import { SHELLS } from './completion-words';
import { UsageError } from './output';
import { didYouMean } from './suggest';
import { ACCOUNT_COMMANDS } from './table-account';
import { REPORT_COMMANDS } from './table-reports';
import { TEAM_COMMANDS } from './table-team';

export type { CliCommand } from './command-spec';

const COMMANDS: readonly CliCommand[] = [
  ...REPORT_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...TEAM_COMMANDS,
  {
    name: 'completion',
    forms: [
      form(
        'completion bash | zsh | fish',
        'a completion script for the shell: `source <(intel-desk',
        'completion bash)` in ~/.bashrc (zsh: in ~/.zshrc, after compinit;',
        'fish: save it as ~/.config/fish/completions/intel-desk.fish)',
      ),
    ],
    options: [],
    actions: SHELLS,
    opensLibrary: false,
    run: async ({ args }) => {
      const { completionScript } = await import('./completion');
      process.stdout.write(completionScript(need(args, 0, 'shell (bash, zsh or fish)'), COMMAND_TABLE));
    },
  },
];

const NAMES = [...COMMANDS.map((command) => command.name), 'help'];

export const COMMAND_TABLE: readonly CliCommand[] = [
  ...COMMANDS,
  {
    name: 'help',
    forms: [form('help [<command>]', 'this list, or one command with its options (as <command> --help)')],
    options: [],
    actions: NAMES,
    opensLibrary: false,
    run: async ({ args }) => {
      const { commandHelp, mainHelp } = await import('./help');
      const [name] = args;
      if (name === undefined) return void process.stdout.write(`${mainHelp(COMMAND_TABLE)}\n`);
      const command = findCommand(name);
      if (!command) throw new UsageError(`help: no command "${name}".${didYouMean(name, NAMES)}`);
      process.stdout.write(`${commandHelp(command)}\n`);
    },
  },
];
export const COMMAND_NAMES: readonly string[] = NAMES;

export const findCommand = (name: string): CliCommand | undefined =>
  COMMAND_TABLE.find((command) => command.name === name);
