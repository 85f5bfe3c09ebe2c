/**
 * The front door of the `archive` commands (src/cli/commands/archive.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { defaultArchivePath } from '../services/paths.js';
export { commitImports, exportTrial, type PreparedImport } from '../archive/archive-io.js';
export { prepareImport } from '../jobs/import-prepare.js';
export { withArchiveFaultsAsync } from '../archive/archive-errors.js';
export { Archive } from '../archive/archive.js';
export { checkArchive, type ArchiveCheckReport } from '../jobs/check.js';
export { runScoreJob } from '../jobs/score-job.js';
export { readSuiteFolder, storeSuite } from '../archive/inputs-store.js';
export { listTrials } from '../archive/queries.js';
export { readTextInput } from '../inputs.js';
export { deleteTrialFromArchive } from '../jobs/delete-trial.js';
