// Lint rules. The layer rules make a wrong import fail `npm test`:
// core <- shared <- node <- cli/main; preload <- shared; renderer <- shared/core.
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'worker_threads', 'crypto', 'net', 'http', 'https', 'url', 'util', 'stream', 'events', 'process'];

function layer(name, forbiddenLayers, extra = []) {
  return {
    files: [`src/${name}/**/*.ts`, `src/${name}/**/*.tsx`],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbiddenLayers.map((l) => ({
              group: [`**/${l}/*`, `**/${l}`],
              message: `src/${name} may not import from src/${l} (see docs/architecture.md).`,
            })),
            ...extra,
          ],
        },
      ],
    },
  };
}

const pureExtras = [
  { group: NODE_BUILTINS, message: 'This layer is pure: no Node built-ins.' },
  { group: ['electron', 'electron/*'], message: 'This layer is pure: no Electron.' },
];

// Clocks and ambient randomness never reach anything hashed or scored.
const pureGlobals = {
  'no-restricted-globals': ['error', 'Date', 'performance', 'process', 'setTimeout', 'setInterval', 'window', 'document', 'require'],
  'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Randomness comes from the seeded streams only.' }],
};

// The archive store (src/node/archive/archive.ts): the only modules that hold the database handle or write SQL.
const ARCHIVE_STORE = ['db', 'migrations', 'archive', 'artifacts', 'trials-store', 'inputs-store', 'queries', 'catalog-queries', 'trial-signatures'].map((name) => `src/node/archive/${name}.ts`);
const SQL_WORDS = 'SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK|REPLACE|WITH';
const STORE_ONLY = 'belongs in the archive store (ARCHIVE_STORE in eslint.config.js, src/node/archive/archive.ts): add a typed function there and call it.';
const outsideTheStore = [
  { selector: "ImportDeclaration[source.value='better-sqlite3']", message: `The database driver ${STORE_ONLY}` },
  { selector: 'ImportDeclaration[source.value=/(^|\\/)db\\.js$/]', message: `The database module ${STORE_ONLY}` },
  { selector: "ImportSpecifier[imported.name=/^(connectionOf|statement|stmt)$/]", message: `The database handle ${STORE_ONLY}` },
  { selector: "CallExpression[callee.property.name=/^(prepare|pragma|transaction)$/]", message: `A database call ${STORE_ONLY}` },
  { selector: `Literal[value=/^\\s*(${SQL_WORDS})\\s/]`, message: `SQL ${STORE_ONLY}` },
  { selector: `TemplateElement[value.raw=/^\\s*(${SQL_WORDS})\\s/]`, message: `SQL ${STORE_ONLY}` },
];
const namedExports = { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', namedExports, ...outsideTheStore] },
  },
  {
    // The store itself, and tests and test kits (which set up and inspect rows directly).
    files: [...ARCHIVE_STORE, 'src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/*-testkit.ts'],
    rules: { 'no-restricted-syntax': ['error', namedExports] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer('core', ['shared', 'node', 'cli', 'main', 'preload', 'renderer'], pureExtras),
  layer('shared', ['node', 'cli', 'main', 'preload', 'renderer'], pureExtras),
  layer('node', ['cli', 'main', 'preload', 'renderer'], [{ group: ['electron', 'electron/*'], message: 'src/node is Electron-free.' }]),
  layer('cli', ['main', 'preload', 'renderer'], [{ group: ['electron', 'electron/*'], message: 'The CLI never loads Electron.' }]),
  layer('main', ['cli', 'renderer', 'preload']),
  layer('preload', ['core', 'node', 'cli', 'main', 'renderer']),
  layer('renderer', ['node', 'cli', 'main', 'preload'], [{ group: NODE_BUILTINS, message: 'The renderer is sandboxed: no Node built-ins.' }]),
  { files: ['src/core/**/*.ts', 'src/shared/**/*.ts'], ignores: ['src/**/*.test.ts'], rules: pureGlobals },
);
