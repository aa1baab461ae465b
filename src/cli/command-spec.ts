/** The shape of a CLI command in the table (command-table.ts), and helpers to declare one. */
import type { DeskCore } from '../core';
import { UsageError, type Output } from './output';
import type { OptionName, Values } from './options';

/** A flag's value name and meaning in one command's help. */
export interface OptionText {
  value?: string;
  text: string;
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
