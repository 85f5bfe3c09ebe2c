/**
 * The front door of the `statistics` commands (src/cli/commands/statistics.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { checkOutputPath, writeOutputFile } from '../files.js';
export { statisticsSubjectOfFile } from '../eval/result-subject.js';
export { loadSuiteDir } from '../inputs.js';
