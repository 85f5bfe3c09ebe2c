/**
 * The front door of the `score` commands (src/cli/commands/score.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { inputFileSize, readTextInput } from '../inputs.js';
export { scoreResultFiles, type ScoreTarget } from '../workflows/score.js';
