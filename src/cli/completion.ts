/**
 * `intel-desk completion bash|zsh|fish`: a completion script generated from the command table, so it offers
 * the commands, each command's actions and flags, and the values a flag takes (a file name after a flag that
 * takes a file, a folder after one that takes a folder), as they are.
 */
import { completionOf, flagsOf, type CliCommand } from './command-spec';
import { fish } from './completion-fish';
import { headline, quoted, SHELLS } from './completion-words';
import { OPTION_HELP, type OptionName, type ValueCompletion } from './options';
import { UsageError } from './output';
import { didYouMean } from './suggest';

const takesValue = (name: OptionName) => OPTION_HELP[name].value !== undefined;

function bashOffer(completes: ValueCompletion): string {
  if (Array.isArray(completes)) return `COMPREPLY=($(compgen -W ${quoted(completes.join(' '))} -- "$cur"))`;
  if (completes === 'file') return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))';
  if (completes === 'folder') return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur"))';
  return 'COMPREPLY=()';
}

/** "command:--flag" cases: the flag's own completion for any command, after each command's own meaning. */
function bashValueCases(table: readonly CliCommand[]): string[] {
  const own = table.flatMap((command) =>
    flagsOf(command)
      .filter(
        (name) => takesValue(name) && completionOf(command, name) !== (OPTION_HELP[name].completes ?? 'none'),
      )
      .map((name) => `    ${command.name}:--${name}) ${bashOffer(completionOf(command, name))}; return ;;`),
  );
  const shared = (Object.keys(OPTION_HELP) as OptionName[])
    .filter(takesValue)
    .map((name) => `    *:--${name}) ${bashOffer(OPTION_HELP[name].completes ?? 'none')}; return ;;`);
  return [...own, ...shared];
}

function bash(table: readonly CliCommand[]): string {
  const commandCases = table.map((command) => {
    const flags = flagsOf(command).map((flag) => `--${flag}`);
    const actions = (command.actions ?? []).join(' ');
    return `    ${command.name}) actions=${quoted(actions)} flags=${quoted(flags.join(' '))} ;;`;
  });
  const names = quoted(table.map((command) => command.name).join(' '));
  return [
    '# intel-desk completion for bash: source <(intel-desk completion bash)',
    '_intel_desk() {',
    `  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" actions='' flags=''`,
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=($(compgen -W ${names} -- "$cur"))`,
    '    return',
    '  fi',
    '  case "${COMP_WORDS[1]}:$prev" in',
    ...bashValueCases(table),
    '  esac',
    '  case "${COMP_WORDS[1]}" in',
    ...commandCases,
    '  esac',
    '  # Flags after a dash, the action right after the command; else nothing, and bash offers file names.',
    '  if [[ "$cur" == -* ]]; then',
    '    COMPREPLY=($(compgen -W "$flags" -- "$cur"))',
    '  elif [ "$COMP_CWORD" -eq 2 ]; then',
    '    COMPREPLY=($(compgen -W "$actions" -- "$cur"))',
    '  fi',
    '}',
    'complete -o default -F _intel_desk intel-desk',
    '',
  ].join('\n');
}

function zshFlag(command: CliCommand, name: OptionName): string {
  const help = OPTION_HELP[name];
  const text = (command.optionText?.[name]?.text ?? help.text).replace(/[[\]:]/g, ' ');
  if (help.value === undefined) return quoted(`--${name}[${text}]`);
  const completes = completionOf(command, name);
  const action = Array.isArray(completes)
    ? `(${completes.join(' ')})`
    : completes === 'file'
      ? '_files'
      : completes === 'folder'
        ? '_files -/'
        : ' ';
  return quoted(`--${name}=[${text}]:${command.optionText?.[name]?.value ?? help.value}:${action}`);
}

function zsh(table: readonly CliCommand[]): string {
  const commands = table.map((command) =>
    quoted(`${command.name}:${headline(command).replace(/:/g, '\\:')}`),
  );
  const commandCases = table.map((command) => {
    const actions = command.actions ? [quoted(`1:action:(${command.actions.join(' ')})`)] : [];
    const flags = flagsOf(command).map((name) => zshFlag(command, name));
    const specs = [...flags, ...actions, quoted('*:argument:_default')];
    return `    ${command.name}) _arguments -S ${specs.join(' ')} ;;`;
  });
  return [
    '#compdef intel-desk',
    '# intel-desk completion for zsh: source <(intel-desk completion zsh) after compinit in ~/.zshrc',
    '_intel_desk() {',
    '  local -a commands',
    `  commands=(${commands.join(' ')})`,
    '  if (( CURRENT == 2 )); then',
    "    _describe -t commands 'intel-desk command' commands",
    '    return',
    '  fi',
    '  local command=$words[2]',
    '  shift words',
    '  (( CURRENT-- ))',
    '  case $command in',
    ...commandCases,
    '  esac',
    '}',
    'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then',
    '  _intel_desk "$@"',
    'else',
    '  compdef _intel_desk intel-desk',
    'fi',
    '',
  ].join('\n');
}

export function completionScript(shell: string, table: readonly CliCommand[]): string {
  if (shell === 'bash') return bash(table);
  if (shell === 'zsh') return zsh(table);
  if (shell === 'fish') return fish(table);
  throw new UsageError(`completion takes bash, zsh or fish.${didYouMean(shell, SHELLS)}`);
}
