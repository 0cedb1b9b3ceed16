import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, type CliCommand, type ParsedArgs } from './cli-command';

/** What a command declares: each option's name and whether it takes a value (string) or none (boolean). */
export type CliOptions = NonNullable<ParseArgsConfig['options']>;

/** True when the arguments ask for help: then nothing else is read, checked or done. */
export const asksForHelp = (argv: readonly string[]): boolean => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

/** node:util's messages, in the CLI's own words (they name the option; ours say what to do). */
const usageMessage = (error: Error & { code?: string }): string => {
  const option = /'(-[^' <]+)/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (/does not take an argument/.test(error.message)) return `${option} is a flag: it takes no value`;
  if (/argument missing|ambiguous/.test(error.message)) return `${option} needs a value`;
  return error.message;
};

/**
 * The command's arguments through node:util parseArgs in strict mode: an option the command
 * does not declare, a value missing, or a value given to a flag is a UsageError (exit 2).
 */
export const parseCommandArgs = (command: Pick<CliCommand, 'options'>, argv: string[]): ParsedArgs => {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: command.options, strict: true, allowPositionals: true });
    const flags: ParsedArgs['flags'] = {};
    for (const [name, value] of Object.entries(values)) if (typeof value === 'string' || value === true) flags[name] = value;
    return { positional: positionals, flags };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError(usageMessage(error as Error));
    throw error;
  }
};

export const stringFlag = (args: ParsedArgs, name: string): string | undefined => {
  const value = args.flags[name];
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
};
