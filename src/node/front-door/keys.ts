/**
 * The front door of the `keys` commands (src/cli/commands/keys.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { SCRYPT_PARAMS, newKeyFileText, readKeyFile, writeKeyFile, type KeyFile } from '../signing/key-file.js';
