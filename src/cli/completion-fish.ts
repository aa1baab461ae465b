/**
 * The fish completion script, from the command table: `complete` lines, each under a condition on the words
 * typed so far (the command is the first word, as for bash and zsh). Files are offered where fish offers them
 * by default (a command's arguments) and after a flag that takes a file; never in place of a command name.
 */
import { completionOf, flagsOf, type CliCommand } from './command-spec';
import { fishQuoted, headline } from './completion-words';
import { OPTION_HELP, type OptionName } from './options';

const FUNCTIONS = [
  '# The command line so far, without the word being completed.',
  'function __intel_desk_at_command',
  '    test (count (commandline -opc)) -eq 1',
  'end',
  'function __intel_desk_in',
  '    set -l words (commandline -opc)',
  '    test (count $words) -ge 2; and test "$words[2]" = "$argv[1]"',
  'end',
  'function __intel_desk_action_of',
  '    set -l words (commandline -opc)',
  '    test (count $words) -eq 2; and test "$words[2]" = "$argv[1]"',
  'end',
];

const SHORT: Partial<Record<OptionName, string>> = { help: 'h', version: 'V' };

function flagLine(condition: string, command: CliCommand | null, name: OptionName): string {
  const help = OPTION_HELP[name];
  const text = (command?.optionText?.[name]?.text ?? help.text).replaceAll('\n', ' ');
  const short = SHORT[name] ? ` -s ${SHORT[name]}` : '';
  const completes = command ? completionOf(command, name) : (help.completes ?? 'none');
  const value =
    help.value === undefined
      ? ''
      : Array.isArray(completes)
        ? ` -x -a ${fishQuoted(completes.join(' '))}`
        : completes === 'file'
          ? ' -r -F'
          : completes === 'folder'
            ? ` -x -a ${fishQuoted('(__fish_complete_directories)')}`
            : ' -x';
  return `complete -c intel-desk -n ${fishQuoted(condition)} -l ${name}${short}${value} -d ${fishQuoted(text)}`;
}

export function fish(table: readonly CliCommand[]): string {
  const commands = table.map(
    (command) =>
      `complete -c intel-desk -n __intel_desk_at_command -f -a ${command.name} -d ${fishQuoted(headline(command))}`,
  );
  const atStart = (['help', 'version'] as const).map((name) =>
    flagLine('__intel_desk_at_command', null, name),
  );
  const perCommand = table.flatMap((command) => [
    ...(command.actions
      ? [
          `complete -c intel-desk -n ${fishQuoted(`__intel_desk_action_of ${command.name}`)} -f -a ${fishQuoted(command.actions.join(' '))}`,
        ]
      : []),
    ...flagsOf(command).map((name) => flagLine(`__intel_desk_in ${command.name}`, command, name)),
  ]);
  return [
    '# intel-desk completion for fish: intel-desk completion fish > ~/.config/fish/completions/intel-desk.fish',
    ...FUNCTIONS,
    ...commands,
    ...atStart,
    ...perCommand,
    '',
  ].join('\n');
}
