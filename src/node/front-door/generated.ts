/**
 * The front door of the `generated` commands (src/cli/commands/generated.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { createGeneratedSuite, loadGeneratedSuite, type GeneratedSuite } from '../generated-suite.js';
export { readTextInput } from '../inputs.js';
