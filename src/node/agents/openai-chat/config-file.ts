/** Loading an `--agent-config` file (strict JSON, at most 1 MiB). */

import { readFileSync, statSync } from 'node:fs';
import { ValidationError } from '../../../core/errors.js';
import { readAgentConfig, type AgentConfig } from '../../../core/llm/config.js';
import { parseJsonInput } from '../../../core/json/strict-parse.js';

const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads and validates an agent configuration file (ValidationError, exit 3, naming the file and field). */
export function loadAgentConfig(path: string): AgentConfig {
  let text: string;
  try {
    if (statSync(path).size > MAX_CONFIG_BYTES) throw new ValidationError(`${path}: agent configuration is larger than 1 MiB`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ValidationError(`${path}: cannot read the agent configuration (${code === 'ENOENT' ? 'it does not exist' : (code ?? (error as Error).message)})`);
  }
  // Numbers with a fraction are kept as their exact decimal text: people write `"temperature": 0.7`.
  return readAgentConfig(parseJsonInput(text, path, 'decimal-text'), path);
}
