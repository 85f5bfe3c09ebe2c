/**
 * The front door of the `result-signing` commands (src/cli/commands/result-signing.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { checkResultSignatures, resultSignaturePath, signResultFile } from '../signing/signature-files.js';
