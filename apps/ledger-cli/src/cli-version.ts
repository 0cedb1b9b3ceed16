import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project's version, from the package.json above this file (in src/ or in dist/ alike). */
export const cliVersion = (from = __dirname): string => {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'provisioning-ledger' && pkg.version) return `ledger-cli ${pkg.version}`;
    } catch {
      // No package.json here: look one level up.
    }
    if (dirname(dir) === dir) return 'ledger-cli (version unknown)';
  }
};
