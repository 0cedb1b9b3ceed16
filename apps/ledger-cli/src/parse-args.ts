import { UsageError, type ParsedArgs } from './cli-command';

/** `--name value`, `--name=value` and bare `--flag`; everything else is positional. */
export const parseArgs = (argv: string[]): ParsedArgs => {
  const parsed: ParsedArgs = { positional: [], flags: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      parsed.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!name) throw new UsageError(`malformed option "${arg}"`);
    if (inline !== undefined) parsed.flags[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) parsed.flags[name] = argv[++i];
    else parsed.flags[name] = true;
  }
  return parsed;
};

export const stringFlag = (args: ParsedArgs, name: string): string | undefined => {
  const value = args.flags[name];
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
};
