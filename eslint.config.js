// Lint rules. The layer rules make a wrong import fail `npm test`:
// core <- shared <- node <- cli/main; preload <- shared; renderer <- shared/core.
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'worker_threads', 'crypto', 'net', 'http', 'https', 'url', 'util', 'stream', 'events', 'process'];

function layerPatterns(name, forbiddenLayers, extra = []) {
  return [
    ...forbiddenLayers.map((l) => ({
      group: [`**/${l}/*`, `**/${l}`],
      message: `src/${name} may not import from src/${l} (see docs/architecture.md).`,
    })),
    ...extra,
  ];
}

function layer(name, forbiddenLayers, extra = []) {
  return {
    files: [`src/${name}/**/*.ts`, `src/${name}/**/*.tsx`],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: layerPatterns(name, forbiddenLayers, extra) }] },
  };
}

const CLI_EXTRA = [{ group: ['electron', 'electron/*'], message: 'The CLI never loads Electron.' }];
const NODE_FORBIDDEN = ['cli', 'main', 'preload', 'renderer'];
const NODE_EXTRA = [{ group: ['electron', 'electron/*'], message: 'src/node is Electron-free.' }];

// The order inside src/node, lowest first (docs/architecture.md "The order
// inside src/node"): a folder imports only from the folders before it and
// from the base files (src/node/*.ts), which import no folder. Folders of
// one step (an inner array) import none of each other. A folder's name
// appears only here, so renaming one is a one-word change.
const NODE_ORDER = [
  ['agents'],
  ['eval'],
  ['shard-plan'],
  ['archive'],
  ['workflows'],
  ['signing'],
  ['bundle'],
  ['report-html'],
  ['jobs'],
  ['services'],
  ['server'],
  ['front-door'],
];

/** Import paths that reach folder `target` of src/node from a file 1 to 3 folders below src/node. */
function nodeFolderPaths(target) {
  return ['../', '../../', '../../../'].flatMap((up) => [`${up}${target}`, `${up}${target}/*`]);
}

function nodeOrder() {
  const all = NODE_ORDER.flat();
  // A new folder without a place in the order would escape the rule.
  for (const entry of readdirSync(new URL('./src/node/', import.meta.url), { withFileTypes: true })) {
    if (entry.isDirectory() && !all.includes(entry.name)) throw new Error(`eslint.config.js: src/node/${entry.name} has no place in NODE_ORDER; add it where its imports put it`);
  }
  const restrict = (files, patterns) => ({
    files,
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...layerPatterns('node', NODE_FORBIDDEN, NODE_EXTRA), ...patterns] }] },
  });
  const base = restrict(['src/node/*.ts'], [
    { group: all.flatMap((f) => [`./${f}`, `./${f}/*`]), message: 'The base files of src/node import no folder of src/node (see the order in docs/architecture.md).' },
  ]);
  const folders = NODE_ORDER.flatMap((step, i) =>
    step.map((folder) => {
      const above = [...step.filter((f) => f !== folder), ...NODE_ORDER.slice(i + 1).flat()];
      const message = `src/node/${folder} may import only the folders before it in the order of src/node: ${all.join(' < ')} (see docs/architecture.md).`;
      return restrict([`src/node/${folder}/**/*.ts`], above.length === 0 ? [] : [{ group: above.flatMap(nodeFolderPaths), message }]);
    }),
  );
  return [base, ...folders];
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
const ARCHIVE_STORE = ['db', 'migrations', 'archive', 'artifacts', 'trials-store', 'inputs-store', 'queries', 'catalog-queries', 'trial-signatures', 'model-history', 'trial-housekeeping'].map((name) => `src/node/archive/${name}.ts`);
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
    files: [...ARCHIVE_STORE, 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: { 'no-restricted-syntax': ['error', namedExports] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer('core', ['shared', 'node', 'cli', 'main', 'preload', 'renderer'], pureExtras),
  layer('shared', ['node', 'cli', 'main', 'preload', 'renderer'], pureExtras),
  layer('node', NODE_FORBIDDEN, NODE_EXTRA),
  ...nodeOrder(),
  layer('cli', ['main', 'preload', 'renderer'], CLI_EXTRA),
  // A command reaches src/node only through its group's front door (src/node/front-door/GROUP.ts).
  {
    files: ['src/cli/commands/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layerPatterns('cli', ['main', 'preload', 'renderer'], CLI_EXTRA),
            { group: ['../../node/*', '!../../node/front-door'], message: 'src/cli/commands imports src/node only through src/node/front-door/GROUP.ts (see docs/architecture.md).' },
          ],
        },
      ],
    },
  },
  layer('main', ['cli', 'renderer', 'preload']),
  layer('preload', ['core', 'node', 'cli', 'main', 'renderer']),
  layer('renderer', ['node', 'cli', 'main', 'preload'], [{ group: NODE_BUILTINS, message: 'The renderer is sandboxed: no Node built-ins.' }]),
  { files: ['src/core/**/*.ts', 'src/shared/**/*.ts'], ignores: ['src/**/*.test.ts'], rules: pureGlobals },
);
