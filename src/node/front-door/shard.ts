/**
 * The front door of the `shard` commands (src/cli/commands/shard.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { checkJobs, checkModelId } from '../eval/runner.js';
export { writeOutputFile } from '../files.js';
export { API_KEY_ENV, K8S_MOUNT, planFiles, runName, type Backend, type PlanOptions } from '../shard-plan/plan.js';
export { errnoCode, errnoText } from '../errno.js';
