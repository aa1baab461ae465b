/**
 * Every command once: its forms and what they do (the help is generated from them), its flags (its own
 * `--help` and the shell completion), and what runs it. main.ts dispatches through this table, so the help,
 * the completion and the commands cannot drift apart. Each command's module loads only when it runs.
 */
import { form, need, type CliCommand } from './command-spec';
import { ACCOUNT_COMMANDS } from './table-account';
import { REPORT_COMMANDS } from './table-reports';
import { TEAM_COMMANDS } from './table-team';

export type { CliCommand } from './command-spec';

export const COMMAND_TABLE: readonly CliCommand[] = [
  ...REPORT_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...TEAM_COMMANDS,
  {
    name: 'completion',
    forms: [
      form(
        'completion bash | zsh',
        'a completion script for the shell: `source <(intel-desk',
        'completion bash)` in ~/.bashrc (zsh: in ~/.zshrc, after compinit)',
      ),
    ],
    options: [],
    actions: ['bash', 'zsh'],
    opensLibrary: false,
    run: async ({ args }) => {
      const { completionScript } = await import('./completion');
      process.stdout.write(completionScript(need(args, 0, 'shell (bash or zsh)'), COMMAND_TABLE));
    },
  },
];
export const COMMAND_NAMES: readonly string[] = COMMAND_TABLE.map((command) => command.name);

export const findCommand = (name: string): CliCommand | undefined =>
  COMMAND_TABLE.find((command) => command.name === name);
