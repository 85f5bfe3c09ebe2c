/**
 * The front door of the `status` commands (src/cli/commands/status.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { runStatus, shardResultPath, type RunSettings, type ShardStatus } from '../eval/run-dir.js';
export { shellWord } from '../shard-plan/shell.js';
export { outputStatus, type OutputStatus } from '../eval/output-status.js';
export { loadManifestFile, loadSuiteDir } from '../inputs.js';
