/**
 * The front door of the `suite` commands (src/cli/commands/suite.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { loadSuiteDir } from '../inputs.js';
