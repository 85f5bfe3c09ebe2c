/**
 * The front door of the `evaluation` commands (src/cli/commands/evaluation.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { DEFAULT_ACT_TIMEOUT_MS } from '../agents/open-agent.js';
export { defaultEntryPoints } from '../entry-points.js';
export { checkJobs, checkModelId, progressLine } from '../eval/runner.js';
export { journalPath } from '../eval/journal-lines.js';
export { isLocalAgent } from '../agents/local-operational.js';
export { runTrialsToFiles, type TrialOutcome } from '../workflows/trials.js';
export { verifyResultFile, writeManifestFile } from '../workflows/evaluation.js';
export { runMeter } from '../workflows/run-progress.js';
