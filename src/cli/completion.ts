/**
 * `intel-desk completion bash|zsh`: a completion script generated from the command table, so it offers the
 * commands, each command's actions and flags, and the values a flag takes, as they are.
 */
import type { CliCommand } from './command-spec';
import { GLOBAL_OPTIONS, OPTION_HELP, type OptionName } from './options';
import { UsageError } from './output';
import { didYouMean } from './suggest';

const SHELLS = ['bash', 'zsh'] as const;

const flagsOf = (command: CliCommand): OptionName[] => [...new Set([...command.options, ...GLOBAL_OPTIONS])];

/** Single-quoted for either shell. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function bash(table: readonly CliCommand[]): string {
  const valueCases = Object.entries(OPTION_HELP)
    .filter(([, help]) => help.value !== undefined)
    .map(([name, help]) => {
      const offer = Array.isArray(help.completes)
        ? `COMPREPLY=($(compgen -W ${quoted(help.completes.join(' '))} -- "$cur"))`
        : help.completes === 'folder'
          ? 'COMPREPLY=($(compgen -d -- "$cur"))'
          : // Nothing offered: bash falls back to file names (complete -o default).
            'COMPREPLY=()';
      return `    --${name}) ${offer}; return ;;`;
    });
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
    '  case "$prev" in',
    ...valueCases,
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

function zshFlag(name: OptionName): string {
  const help = OPTION_HELP[name];
  const text = help.text.replace(/[[\]:]/g, ' ');
  if (help.value === undefined) return quoted(`--${name}[${text}]`);
  const action = Array.isArray(help.completes)
    ? `(${help.completes.join(' ')})`
    : help.completes === 'file'
      ? '_files'
      : help.completes === 'folder'
        ? '_files -/'
        : ' ';
  return quoted(`--${name}=[${text}]:${help.value}:${action}`);
}

/** What a command does, in its first clause: "search your library", not the whole query syntax. */
function headline(command: CliCommand): string {
  const summary = (command.forms[0]?.summary ?? []).join(' ').replace(/ \([^)]*\)/g, '');
  return summary.split(/; |: /)[0] ?? summary;
}

function zsh(table: readonly CliCommand[]): string {
  const commands = table.map((command) =>
    quoted(`${command.name}:${headline(command).replace(/:/g, '\\:')}`),
  );
  const commandCases = table.map((command) => {
    const actions = command.actions ? [quoted(`1:action:(${command.actions.join(' ')})`)] : [];
    const specs = [...flagsOf(command).map(zshFlag), ...actions, quoted('*:argument:_default')];
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
  throw new UsageError(`completion takes bash or zsh.${didYouMean(shell, SHELLS)}`);
}
