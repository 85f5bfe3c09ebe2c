/**
 * The front door of the `serve` commands (src/cli/commands/serve.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { defaultArchivePath, userDataDir } from '../services/paths.js';
export { createWorkbenchServices } from '../services/services.js';
export { defaultEntryPoints } from '../entry-points.js';
export { startWorkbenchServer, type WorkbenchServer } from '../server/workbench-server.js';
export { loadOrCreateServeToken, rotateServeToken, serveTokenPath } from '../server/serve-token.js';
