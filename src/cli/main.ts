/**
 * intel-desk: the command line over core. `npm run desk -- <command>`; `--help` lists the commands,
 * `<command> --help` shows one. The commands, their help and their completion come from one table.
 */
import { parseArgs } from 'node:util';
// Only what `--help` and argument errors need is imported up front; core, its packages and each command's
// module load when a command runs, so `intel-desk --help` starts about as fast as Node itself.
import type { DeskCore } from '../core';
import packageJson from '../../package.json';
import { flagNotTaken } from './command-spec';
import { COMMAND_NAMES, COMMAND_TABLE, findCommand } from './command-table';
import { commandHelp, mainHelp } from './help';
import { argumentError, OPTIONS } from './options';
import { output, reportError, UsageError } from './output';
import { quietWhenTheReaderLeaves } from './quiet-pipe';
import { didYouMean } from './suggest';

const unknownCommand = (command: string) =>
  new UsageError(`unknown command "${command}".${didYouMean(command, COMMAND_NAMES)} See --help.`);

async function main(): Promise<number> {
  quietWhenTheReaderLeaves(process.stdout);
  quietWhenTheReaderLeaves(process.stderr);
  let parsed;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return reportError(argumentError(error), process.argv.includes('--json'));
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`intel-desk ${packageJson.version}\n`);
    return 0;
  }
  const [name, ...args] = positionals;
  if (name === undefined) {
    process.stdout.write(`${mainHelp(COMMAND_TABLE)}\n`);
    return values.help ? 0 : 2;
  }
  const out = output(values.json ?? false);
  // Before the library is opened: a typo should cost nothing and say only what was meant.
  const command = findCommand(name);
  if (!command) return reportError(unknownCommand(name), out.json);
  if (values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  const stray = flagNotTaken(command, Object.keys(values));
  if (stray) return reportError(stray, out.json);
  const call = { out, values, args };
  let desk: DeskCore | null = null;
  try {
    if (!command.opensLibrary) await command.run(call);
    else {
      const { openDesk, warnAtStart } = await import('./open-desk');
      desk = await openDesk(values, name);
      await warnAtStart(desk, name);
      await command.run(desk, call);
    }
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const { withCliRemedy } = await import('./remedies');
    return reportError(await withCliRemedy(error), out.json);
  } finally {
    await desk?.close();
  }
}

process.exitCode = await main();
