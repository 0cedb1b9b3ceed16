/**
 * The README's tour as a test reads it: the fenced blocks whose info string is `sh tour`,
 * in order. A command is a line (with its `\` continuations); the `# →` lines right after
 * it are the answer it must print, `…` standing for what differs between runs.
 */
export interface TourStep {
  command: string;
  expected: string[];
}

const TOUR_BLOCK = /^```sh tour\n([\s\S]*?)^```$/gm;
const EXPECTED = /^# → ?(.*)$/;

export const tourSteps = (readme: string): TourStep[] => {
  const steps: TourStep[] = [];
  for (const [, block] of readme.matchAll(TOUR_BLOCK)) {
    const lines = block.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      const expected = EXPECTED.exec(line);
      if (expected) {
        if (steps.length === 0) throw new Error(`an expected answer with no command before it: ${line}`);
        steps[steps.length - 1].expected.push(expected[1]);
        continue;
      }
      if (line.trim() === '' || line.startsWith('#')) continue;
      let command = line;
      while (command.endsWith('\\') && index + 1 < lines.length) command = `${command.slice(0, -1)}${lines[++index]}`;
      steps.push({ command, expected: [] });
    }
  }
  return steps;
};

/** An expected line as a whole-line pattern: literal text, `…` matching anything. */
export const answerPattern = (expected: string): RegExp =>
  new RegExp(
    `^${expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/**
 * One bash script for the whole tour, so its variables carry from block to block as in a
 * reader's terminal. A step with an expected answer writes what it printed to its own file;
 * `set -e` stops at the first command that fails.
 */
export const tourScript = (steps: readonly TourStep[], outputFile: (step: number) => string): string =>
  ['set -euo pipefail', ...steps.map((step, index) => (step.expected.length > 0 ? `{ ${step.command}\n} > ${outputFile(index)}` : step.command))].join('\n');
