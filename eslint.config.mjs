// Lint for the whole tree (apps, libs, test, bench), run by `npm test`.
// Two jobs: typescript-eslint's strict rules (no explicit `any`), and the import
// boundaries that keep the layering docs/architecture.md shows.
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

const LIBS = ['domain', 'event-store', 'projections', 'access-lib'];
// The ledger's shared layers; everything else directly under apps/ledger/src is a feature module.
const LEDGER_LAYERS = ['ledger-config', 'ledger-infrastructure', 'ledger-application', 'ledger-read-models', 'ledger-http', 'ledger-openapi'];

const allow = (from, to) => ({ from: { element: { types: from } }, allow: { to: { element: { types: to } } } });
const allowPackages = (from) => ({ from: { element: { types: from } }, allow: { to: { module: { origin: ['external', 'core'] } } } });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strict],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Unused names are already a compile error (noUnusedLocals); `_name` marks a deliberately ignored one.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Nest modules are classes with decorators and nothing else.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      // Off: `!` follows checks the compiler cannot see (a Map.get after has, a parsed id
      // known valid); and read models are plain records, so `delete record[key]` is the operation.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    // A source file holds one concept and reads in one sitting: at most 300 lines, every line
    // counted (comments and blank lines too), tests and the bench as much as the apps. Only
    // generated code is exempt: the API types derived from the OpenAPI document.
    files: ['**/*.ts'],
    ignores: ['libs/ledger-client/src/ledger-api.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Generated code is not held to the hand-written rules about types.
    files: ['libs/ledger-client/src/ledger-api.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        { type: 'domain', pattern: 'libs/domain' },
        { type: 'event-store', pattern: 'libs/event-store' },
        { type: 'projections', pattern: 'libs/projections' },
        { type: 'access-lib', pattern: 'libs/access' },
        { type: 'testing-lib', pattern: 'libs/testing' },
        { type: 'client-lib', pattern: 'libs/ledger-client' },
        { type: 'lease-files-lib', pattern: 'libs/lease-files' },
        { type: 'dhcp-agent', pattern: 'apps/dhcp-agent' },
        { type: 'ledger-config', pattern: 'apps/ledger/src/config' },
        { type: 'ledger-infrastructure', pattern: 'apps/ledger/src/infrastructure' },
        { type: 'ledger-application', pattern: 'apps/ledger/src/application' },
        { type: 'ledger-read-models', pattern: 'apps/ledger/src/read-models' },
        { type: 'ledger-http', pattern: 'apps/ledger/src/http' },
        // The OpenAPI document is built from the whole app (every feature's routes), so it sits beside the root;
        // the rest of openapi/ is the shared vocabulary (error shape, refusals, params) features describe their routes in.
        { type: 'ledger-openapi-document', pattern: 'apps/ledger/src/openapi/document' },
        { type: 'ledger-openapi', pattern: 'apps/ledger/src/openapi' },
        { type: 'ledger-feature', pattern: 'apps/ledger/src/*', capture: ['feature'] },
        { type: 'ledger-root', pattern: 'apps/ledger/src/*.ts', mode: 'file' },
        { type: 'cli', pattern: 'apps/ledger-cli' },
        { type: 'maas-facade', pattern: 'apps/maas-facade' },
        { type: 'review-page', pattern: 'apps/review' },
        { type: 'e2e', pattern: 'test' },
        { type: 'bench', pattern: 'bench' },
      ],
      // Specs and test support (fixtures, generated histories) may use the test tools.
      'boundaries/files': [
        { category: 'spec', pattern: '**/*.spec.ts' },
        { category: 'spec', pattern: '**/testing/**' },
        { category: 'spec', pattern: '**/invariants/*-history.ts' },
      ],
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // Packages and node's own modules are checked too: that is how the domain stays pure.
          checkAllOrigins: true,
          checkUnknownLocals: true,
          message: 'layering: {{from.element.types}} may not import {{dependency.source}} ({{to.element.types}}{{to.module.origin}}); see docs/architecture.md',
          policies: [
            // The domain is pure: no framework, no I/O (node:net only parses addresses); its specs use the test tools.
            allow(['domain'], ['domain']),
            { from: { element: { type: 'domain' } }, allow: { to: { module: { source: 'node:net' } } } },
            // Persistent maps: pure data structures for the parts of a node's state that grow with its history.
            { from: { element: { type: 'domain' } }, allow: { to: { module: { source: 'immutable' } } } },
            { from: { file: { categories: 'spec' } }, allow: { to: { module: { origin: ['external', 'core'] } } } },
            // Libraries depend inward only, and never on an app.
            allow(['event-store'], ['event-store']),
            allow(['projections'], ['domain', 'event-store', 'projections']),
            allow(['access-lib'], ['domain', 'access-lib']),
            allow(['client-lib'], ['client-lib']),
            // DHCP servers' lease files, read by the CLI's import and followed by the DHCP agent.
            allow(['lease-files-lib'], ['domain', 'lease-files-lib']),
            allowPackages(['lease-files-lib']),
            allow(['testing-lib'], [...LIBS, 'client-lib', 'testing-lib']),
            allowPackages(['event-store', 'projections', 'access-lib', 'testing-lib', 'client-lib']),
            // Inside the ledger: config <- infrastructure <- application / read models <- features <- root.
            allow(['ledger-config'], ['ledger-config']),
            allow(['ledger-infrastructure'], [...LIBS, 'ledger-config', 'ledger-infrastructure']),
            allow(['ledger-application'], [...LIBS, 'ledger-config', 'ledger-infrastructure', 'ledger-application']),
            allow(['ledger-read-models'], [...LIBS, 'ledger-config', 'ledger-infrastructure', 'ledger-application', 'ledger-read-models']),
            allow(['ledger-http'], [...LIBS, 'ledger-config', 'ledger-infrastructure', 'ledger-application', 'ledger-http']),
            allow(['ledger-openapi'], [...LIBS, 'ledger-http', 'ledger-openapi']),
            allow(['ledger-feature'], [...LIBS, ...LEDGER_LAYERS]),
            // A feature imports itself, and no other feature (admin reads the audit index through AuditModule).
            {
              from: { element: { type: 'ledger-feature' } },
              allow: { to: { element: { type: 'ledger-feature', captured: { feature: '{{from.captured.feature}}' } } } },
            },
            {
              from: { element: { type: 'ledger-feature', captured: { feature: 'admin' } } },
              allow: { to: { element: { type: 'ledger-feature', captured: { feature: 'audit' } } } },
            },
            allow(['ledger-root'], [...LIBS, ...LEDGER_LAYERS, 'ledger-feature', 'ledger-openapi-document', 'ledger-root']),
            allow(['ledger-openapi-document'], [...LIBS, ...LEDGER_LAYERS, 'ledger-feature', 'ledger-openapi-document', 'ledger-root']),
            allowPackages([...LEDGER_LAYERS, 'ledger-feature', 'ledger-openapi-document', 'ledger-root']),
            // The CLI stands beside the server: libraries only (the typed client among them).
            allow(['cli'], [...LIBS, 'client-lib', 'lease-files-lib', 'cli']),
            // The DHCP agent is a client of the ledger's API: the typed client and the lease files, no domain rules.
            allow(['dhcp-agent'], ['client-lib', 'lease-files-lib', 'dhcp-agent']),
            allowPackages(['dhcp-agent']),
            allowPackages(['cli']),
            // The MAAS facade is a client of the ledger's HTTP API: the typed client and the key format, nothing of the ledger's inside.
            allow(['maas-facade'], ['access-lib', 'client-lib', 'maas-facade']),
            allowPackages(['maas-facade']),
            // The review page runs in a browser: it imports only itself (no other app, no lib
            // that could pull node-only code into the bundle, no package).
            allow(['review-page'], ['review-page']),
            // End-to-end tests drive the real apps; the bench uses the libraries, the harness and the CLI's log generator, never test/.
            allow(['e2e'], [...LIBS, 'testing-lib', 'client-lib', 'lease-files-lib', 'cli', 'dhcp-agent', 'e2e']),
            allowPackages(['e2e']),
            allow(['bench'], [...LIBS, 'testing-lib', 'lease-files-lib', 'cli', 'dhcp-agent', 'bench']),
            allowPackages(['bench']),
          ],
        },
      ],
    },
  },
);
