/** The shape of a CLI command in the table (command-table.ts), and helpers to declare one. */
import type { DeskCore } from '../core';
import { UsageError, type Output } from './output';
import {
  GLOBAL_OPTIONS,
  OPTION_HELP,
  optionUsage,
  type OptionName,
  type ValueCompletion,
  type Values,
} from './options';
import { didYouMean } from './suggest';

/** A flag's value name, meaning and completion in one command, where they differ from the flag's own. */
export interface OptionText {
  value?: string;
  text: string;
  completes?: ValueCompletion;
}

export interface CommandForm {
  usage: string;
  /** What it does, wrapped for the help's second column. */
  summary: readonly string[];
}

export interface CommandCall {
  out: Output;
  values: Values;
  /** The words after the command's name. */
  args: string[];
}

interface CommandBase {
  name: string;
  forms: readonly CommandForm[];
  /** The flags of this command, besides the global ones. */
  options: readonly OptionName[];
  /** The words its first argument takes (wallet status|import), for the completion. */
  actions?: readonly string[];
  /** What a shared flag means for this command, where it means something else (restore --from FILE). */
  optionText?: Partial<Record<OptionName, OptionText>>;
}

export type CliCommand =
  | (CommandBase & { opensLibrary: true; run(desk: DeskCore, call: CommandCall): Promise<void> })
  | (CommandBase & { opensLibrary: false; run(call: CommandCall): Promise<void> });

export function need(args: string[], index: number, what: string): string {
  const value = args[index];
  if (!value) throw new UsageError(`missing ${what}; see --help`);
  return value;
}

export const SELECTION: readonly OptionName[] = [
  'all',
  'from',
  'to',
  'ids',
  'missing',
  'include-owned',
  'rebuy',
];
export const SIGNER: readonly OptionName[] = ['key-file', 'passphrase-env'];

export const library = (
  name: string,
  forms: readonly CommandForm[],
  options: readonly OptionName[],
  run: (desk: DeskCore, call: CommandCall) => Promise<void>,
  actions?: readonly string[],
): CliCommand => ({ name, forms, options, opensLibrary: true, run, ...(actions ? { actions } : {}) });

/** The command with its own words for some of its flags in `<command> --help`. */
export const withOptionText = (
  command: CliCommand,
  optionText: Partial<Record<OptionName, OptionText>>,
): CliCommand => ({ ...command, optionText });

export const form = (usage: string, ...summary: string[]): CommandForm => ({ usage, summary });

/**
 * The flags every command takes; one that opens the library also takes --key-file, the key for that run
 * (open-desk.ts hands it to core whatever the command, so a run that finds the library damaged can sign in
 * and bring purchases back).
 */
export const sharedFlagsOf = (command: CliCommand): readonly OptionName[] =>
  command.opensLibrary ? [...GLOBAL_OPTIONS, 'key-file'] : GLOBAL_OPTIONS;

/** Every flag a command takes: its own, then the shared ones. */
export const flagsOf = (command: CliCommand): OptionName[] => [
  ...new Set([...command.options, ...sharedFlagsOf(command)]),
];

/** What the flag's value completes to for this command (restore --from is a file, quote --from a date). */
export const completionOf = (command: CliCommand, name: OptionName): ValueCompletion =>
  command.optionText?.[name]?.completes ?? OPTION_HELP[name].completes ?? 'none';

/**
 * The first of the given flags the command does not take, refused with the ones it does: a flag another
 * command takes would otherwise be ignored without a word (`library --format pdf`).
 */
export function flagNotTaken(command: CliCommand, given: readonly string[]): UsageError | null {
  const takes = flagsOf(command);
  const stray = given.find((flag) => !(takes as readonly string[]).includes(flag));
  if (stray === undefined) return null;
  const own = command.options.map((name) => {
    const value = command.optionText?.[name]?.value;
    return value === undefined ? optionUsage(name) : `--${name} ${value}`;
  });
  const its =
    own.length === 0
      ? 'It takes only the shared options'
      : `Its options: ${own.join(', ')}, and the shared ones`;
  const near = didYouMean(
    `--${stray}`,
    command.options.map((name) => `--${name}`),
  );
  return new UsageError(
    `${command.name} does not take --${stray}.${near} ${its} (${sharedFlagsOf(command).map(optionUsage).join(', ')}); see intel-desk help ${command.name}.`,
  );
}
