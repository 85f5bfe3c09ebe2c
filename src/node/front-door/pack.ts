/**
 * The front door of the `pack` commands (src/cli/commands/pack.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { buildPack, verifyPackCooperatively } from '../pack.js';
