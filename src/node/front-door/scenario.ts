/**
 * The front door of the `scenario` commands (src/cli/commands/scenario.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { loadScenarioFile } from '../inputs.js';
