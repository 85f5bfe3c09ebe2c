/** Rewrites docs/cli.md from the commands' --help texts (npm run docs:cli). */
import { writeFileSync } from 'node:fs';
import { renderCliReference } from '../src/cli/reference-docs.js';

writeFileSync('docs/cli.md', await renderCliReference());
console.log('wrote docs/cli.md');
