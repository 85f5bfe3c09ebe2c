// docs/llm.md's example configuration, taken verbatim from the page, is what a
// user copies first: it must load as written (numbers for the sampling keys,
// a price with a trailing zero), with exact values in one spelling.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../src/node/agents/openai-chat/config-file.js';

const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'llm.md');

/** The first ```json block after "## The configuration file". */
function exampleConfiguration(): string {
  const page = readFileSync(DOCS, 'utf8');
  const section = page.slice(page.indexOf('## The configuration file'));
  const match = /```json\n([\s\S]*?)\n```/.exec(section);
  if (match === null) throw new Error('docs/llm.md has no json example under "The configuration file"');
  return `${match[1]!}\n`;
}

describe("docs/llm.md's example configuration", () => {
  it('loads verbatim from a file, with the decimals kept exact', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ember-llm-docs-'));
    try {
      const file = join(dir, 'agent.json');
      writeFileSync(file, exampleConfiguration());
      const config = loadAgentConfig(file);
      expect(config.inference).toMatchObject({ temperature: '0.7', top_p: '0.95', max_tokens: 1024, seed: 1234, mode: 'planner', planner_interval: 5 });
      expect(config.pricing).toEqual({ input_per_million: '0.15', output_per_million: '0.6', cost_unit: 'USD' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
