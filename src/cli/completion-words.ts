/** What every shell's completion script says of a command: quoted words and a command's one-line headline. */
import type { CliCommand } from './command-spec';

/** The shells `intel-desk completion` writes a script for. */
export const SHELLS: readonly string[] = ['bash', 'zsh', 'fish'];

/** Single-quoted for bash and zsh. */
export const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Single-quoted for fish, where a backslash inside quotes escapes the next quote or backslash. */
export const fishQuoted = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;

/** What a command does, in its first clause: "search your library", not the whole query syntax. */
export function headline(command: CliCommand): string {
  const summary = (command.forms[0]?.summary ?? []).join(' ').replace(/ \([^)]*\)/g, '');
  return summary.split(/; |: /)[0] ?? summary;
}
