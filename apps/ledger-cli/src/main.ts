#!/usr/bin/env node
import 'reflect-metadata';
import { UsageError, type CliCommand, type CliIo } from './cli-command';
import { asksForHelp, parseCommandArgs, stringFlag } from './parse-args';
import { cliVersion } from './cli-version';
import { exitAfterFlush, exitQuietlyOnClosedPipe } from './process-exit';
import { keysCommand } from './commands/keys.command';
import { importCommand } from './commands/import.command';
import { replayCommand } from './commands/replay.command';
import { rebuildCommand } from './commands/rebuild.command';
import { verifyCommand } from './commands/verify.command';
import { exportCommand } from './commands/export.command';
import { generateCommand } from './commands/generate.command';
import { dirname, resolve } from 'node:path';
import { diagnoseStorageFault } from '@ledger/event-store';
import { ledgerFiles } from './data-dir';
import { STORAGE_FAULT_EXIT } from './exit-codes';
import { hasChosenHeap, relaunchWithBulkHeap } from './bulk-heap';

/** The directories a command writes into: its data and read-model directories, and --out's. */
const storageDirs = (command: CliCommand, argv: string[], io: CliIo): string[] => {
  try {
    const args = parseCommandArgs(command, argv);
    const files = ledgerFiles(args, io);
    const out = stringFlag(args, 'out');
    return [files.dataDir, dirname(files.readModelFile), ...(out ? [dirname(resolve(out))] : [])];
  } catch {
    return [];
  }
};

/** Every sub-command, one line each. */
export const COMMANDS: CliCommand[] = [keysCommand, importCommand, replayCommand, rebuildCommand, verifyCommand, exportCommand, generateCommand];

const helpText = (): string =>
  [
    'usage: ledger-cli <command> [options]',
    '       ledger-cli --version',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
    '',
    'ledger-cli <command> --help (or ledger-cli help <command>) for its options',
  ].join('\n');

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    io.out(cliVersion());
    return 0;
  }
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = rest[0];
    const command = COMMANDS.find((c) => c.name === topic);
    if (topic !== undefined && !command) {
      io.err(`unknown command "${topic}"\n\n${helpText()}`);
      return 2;
    }
    if (!name) io.err(helpText());
    else io.out(command ? command.usage : helpText());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`unknown command "${name}"\n\n${helpText()}`);
    return 2;
  }
  // Help is read before anything else, so `rebuild --help` never starts a rebuild.
  if (asksForHelp(rest)) {
    io.out(command.usage);
    return 0;
  }
  try {
    return await command.run(parseCommandArgs(command, rest), io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${command.usage}`);
      return 2;
    }
    const fault = diagnoseStorageFault(error, storageDirs(command, rest, io));
    if (fault) {
      // A full or read-only disk is the machine's condition, not a bug: say so, no stack.
      io.err(
        `${command.name} refused: ${fault.message} (${fault.code}); no read-model or output file was left half-written: free space (or remount read-write) and run it again`,
      );
      return STORAGE_FAULT_EXIT;
    }
    io.err(error instanceof Error ? `${command.name} failed: ${error.message}` : String(error));
    return 1;
  }
}

if (require.main === module) {
  const io: CliIo = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    interactive: process.stderr.isTTY === true,
    env: process.env,
    errRaw: (text) => process.stderr.write(text),
    stdout: process.stdout,
  };
  const argv = process.argv.slice(2);
  const run = () => {
    exitQuietlyOnClosedPipe();
    void runCli(argv, io).then(exitAfterFlush);
  };
  const command = COMMANDS.find((c) => c.name === argv[0]);
  if (command?.foldsTheLog && !asksForHelp(argv.slice(1)) && !hasChosenHeap()) {
    relaunchWithBulkHeap(__filename, argv).catch((error: unknown) => {
      // Could not start a second process (out of processes or memory): fold in this one, slower.
      io.err(`(running ${command.name} without a larger young generation: ${error instanceof Error ? error.message : String(error)})`);
      run();
    });
  } else run();
}
