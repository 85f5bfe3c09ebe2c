/**
 * The front door of the `bundle` commands (src/cli/commands/bundle.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { createBundle, signBundle, verifyBundleCooperatively } from '../bundle/bundle.js';
