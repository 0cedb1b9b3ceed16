// A node:test reporter that says how long each spec file took, slowest first: the sum of its
// top-level tests' and suites' own durations, hooks included, as the file's process measured
// them (its start and module loading are not counted). run-tests.js writes it to
// test-results/test-durations.txt; the slowest files belong in scripts/slow-specs.txt.
const files = new Map();

export default async function* fileDurations(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (!file || nesting !== 0) continue;
    const entry = files.get(file) ?? { ms: 0, failed: false };
    entry.ms += details?.duration_ms ?? 0;
    entry.failed ||= event.type === 'test:fail';
    files.set(file, entry);
  }
  const rows = [...files].sort(([, a], [, b]) => b.ms - a.ms);
  const total = rows.reduce((sum, [, { ms }]) => sum + ms, 0);
  yield `${(total / 1000).toFixed(1)} s in ${rows.length} files (seconds, file)\n`;
  for (const [file, { ms, failed }] of rows) {
    yield `${(ms / 1000).toFixed(1).padStart(7)}  ${file.replace(`${process.cwd()}/`, '')}${failed ? '  (failed)' : ''}\n`;
  }
}
